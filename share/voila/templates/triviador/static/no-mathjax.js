// The game's pages have no formulas: instead of MathJax from a CDN (Voila's
// default, which a classroom without network cannot reach), this stands in for
// the few MathJax calls JupyterLab's MathJax 2 typesetter makes, and does nothing.
window.MathJax = {
  Hub: { Config() {}, Configured() {}, Queue() {}, Register: { StartupHook() {} } },
  InputJax: { TeX: { resetEquationNumbers() {} } },
};
