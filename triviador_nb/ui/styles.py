"""The game's CSS, sized to be read from the back of a classroom.

The map's own CSS (``MAP_CSS``: its labels are sized from the layout's
fonts) is in :mod:`.map_styles`, so a screen that shows no map yet (a
student's room line, back in the seat: issue 24) loads neither numpy nor
shapely.
"""

from .palette import TEXT

CSS = f"""
<style>
.tnb-root {{ font-family: "DejaVu Sans", "Segoe UI", Arial, sans-serif; color: {TEXT}; font-size: 16px; }}
.tnb-title {{ font-size: 24px; font-weight: bold; margin: 0 0 4px 0; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }}  /* one line beside the place and the sound switch: a wrap would move the map */
.tnb-title-box > .widget-html-content {{ min-width: 0; overflow: hidden; }}
  /* a flex item is as wide as its one-line title unless told: it ran under the place line at 1366 px (issue 24) */
.widget-checkbox.tnb-wrap-check {{ height: auto; }}
.widget-checkbox.tnb-wrap-check label, .widget-checkbox.tnb-wrap-check label span {{ white-space: normal;
  overflow: visible; text-overflow: clip; height: auto; line-height: 1.3; }}
  /* a checkbox whose Hungarian and Czech sentence wraps in the side column instead of being cut */
.tnb-code {{ display: inline-block; font-family: "DejaVu Sans Mono", monospace; font-size: 56px; letter-spacing: 4px;
  background: #fff; border: 3px solid #0077BB; border-radius: 10px; padding: 2px 16px; margin: 4px 8px; }}
.tnb-room-row {{ display: flex; align-items: center; gap: 12px; flex-wrap: wrap; }}
.tnb-room-row .tnb-room-label {{ min-width: 5.5em; }}
.tnb-room-row code {{ font-size: 18px; font-weight: normal; }}
.tnb-join-link {{ display: flex; align-items: center; gap: 16px; margin: 8px 0; font-size: 18px; }}
.tnb-join-link svg {{ flex: 0 0 auto; }}
.tnb-join-link a {{ font-family: "DejaVu Sans Mono", monospace; font-size: 16px; overflow-wrap: anywhere;
  color: #0055AA; text-decoration: underline; }}
.tnb-joined {{ margin: 8px 0; }}
.tnb-joined .tnb-count {{ font-size: 22px; font-weight: bold; }}
.tnb-joined-name {{ display: inline-block; font-size: 34px; font-weight: bold; margin: 4px 18px 4px 0; }}
.tnb-joined-name.tnb-offline {{ opacity: 0.45; }}
.tnb-status {{ font-size: 20px; padding: 8px 12px; border-radius: 8px; background: #EEE;
  border: 2px solid transparent; line-height: 1.25; height: 2.5em; box-sizing: content-box; overflow: hidden;
  display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; }}
/* two lines high whatever it says, on your turn too: the map below never moves (it jumped 28 px about 40
   times a game as the line wrapped, and clicks landed during the jump: issue 24) */
.tnb-status.tnb-yourturn {{ background: #FFF3C4; border: 2px solid #E69F00; }}
.tnb-status.tnb-over {{ background: #DFF0E6; border: 2px solid #009988; }}
.tnb-phase {{ font-weight: bold; }}
.tnb-message {{ font-size: 17px; min-height: 1.4em; }}
.tnb-message .tnb-warn, .tnb-warn {{ color: #A03800; font-weight: bold; }}
.tnb-note {{ color: #333; font-size: 16px; }}
.tnb-scores {{ width: 100%; border-collapse: collapse; font-size: 18px; }}
.tnb-scores td {{ padding: 2px 6px; border-bottom: 1px solid #DDD; vertical-align: middle; }}
.tnb-scores .tnb-score, .tnb-scores .tnb-score .widget-html-content {{ font-size: 26px; font-weight: bold;
  text-align: right; }}
.tnb-scores .tnb-role {{ font-size: 13px; color: #555; }}
.tnb-scores .tnb-player {{ border-bottom: 1px solid #DDD; padding: 2px 6px; box-sizing: border-box; gap: 6px; }}
.tnb-scores .tnb-player .widget-html, .tnb-scores .tnb-player .widget-vbox {{ margin: 0; }}
.tnb-scores .tnb-player .widget-html-content {{ line-height: 1.3; }}
.tnb-acting, .tnb-acting-1 > .tnb-player:nth-child(1), .tnb-acting-2 > .tnb-player:nth-child(2), .tnb-acting-3 > .tnb-player:nth-child(3), .tnb-acting-4 > .tnb-player:nth-child(4) {{ background: #FFF3C4; }}
.tnb-out, .tnb-out-1 > .tnb-player:nth-child(1), .tnb-out-2 > .tnb-player:nth-child(2), .tnb-out-3 > .tnb-player:nth-child(3), .tnb-out-4 > .tnb-player:nth-child(4) {{ opacity: 0.45; }}
.tnb-swatch {{ display: inline-block; width: 22px; height: 22px; border-radius: 4px; border: 1px solid #333;
  vertical-align: middle; color: #fff; font-weight: bold; font-size: 15px; line-height: 22px; text-align: center;
  text-shadow: 0 0 2px #000; }}
.tnb-qhead {{ font-size: 15px; text-transform: uppercase; letter-spacing: 0.05em; color: #555; }}
.tnb-qtext {{ font-size: 22px; font-weight: bold; line-height: 1.25; }}
.tnb-idle {{ font-size: 18px; color: #555; }}
.tnb-timer, .tnb-timer .widget-html-content {{ font-size: 24px; font-weight: bold; }}
.tnb-question .progress-bar {{ transition: width 1s linear; }}  /* the countdown moves once a second */
@media (max-height: 760px) {{  /* a 1280x720 laptop: the four options fit under the map's top without scrolling */
  .tnb-question .tnb-choice {{ height: 42px !important; }}
  .tnb-qhead {{ font-size: 13px; }}
  .tnb-qtext.tnb-long {{ font-size: 17px; line-height: 1.2; }}  /* question_panel.LONG_QUESTION */
}}
.tnb-guess input {{ font-size: 22px !important; height: 44px !important; }}
.tnb-question .tnb-choice {{ white-space: normal; line-height: 1.1; overflow-wrap: anywhere; }}
.tnb-question .tnb-answer {{ padding: 0 4px !important; }}
/* a long option wraps onto a second line and "Odpovědět" keeps its letters, not "D) Tomáš Garrigue Mas..."
   and "Odpově..." in Czech beside a 1280x720 laptop's map (issue 24) */
.tnb-reveal {{ font-size: 16px; background: #F6F6F6; border-radius: 8px; padding: 8px; }}
.tnb-reveal-q {{ color: #444; }}
.tnb-correct {{ font-size: 19px; margin: 4px 0; }}
.tnb-reveal table {{ width: 100%; }}
.tnb-reveal {{ overflow-x: auto; }}
.tnb-reveal td {{ padding: 2px 4px; overflow-wrap: normal; word-break: normal; hyphens: manual; }}
.tnb-reveal td.tnb-given, .tnb-reveal td.tnb-verdict, .tnb-reveal td.tnb-time {{ white-space: nowrap; }}
/* no break inside a word or a number ("wron g", a guess of 1925 as "19 / 25": issue 24); an option's
   words may wrap between them */
.tnb-reveal td.tnb-given.tnb-option {{ white-space: normal; }}
.tnb-outcome {{ font-size: 21px; font-weight: bold; margin: 4px 0 8px 0; }}
.tnb-log {{ font-size: 14px; margin: 0; padding-left: 18px; color: #333; }}
.tnb-ranking {{ font-size: 22px; padding: 10px; border: 3px solid #009988; border-radius: 8px; }}
.tnb-ranking ol {{ margin: 4px 0; }}
.tnb-report {{ font-size: 14px; border-collapse: collapse; width: 100%; }}
.tnb-report td, .tnb-report th {{ border-bottom: 1px solid #DDD; padding: 2px 6px; text-align: left; }}
.tnb-winkind {{ font-size: 26px; font-weight: bold; color: #006655; }}
</style>
"""
