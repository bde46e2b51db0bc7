"""CSS for the screens a class watches from its seats (issue 24 bugs 6, 7).

A screen that plays no seat (a room's projector, the classroom's shared
screen) shows a question's options as large, high-contrast cards, not as
greyed-out disabled buttons: read from the back of the room. The teacher's
box never pushes the page wider than the screen (a long journal path wraps).
"""

WATCH_CSS = """
<style>
.tnb-watch .tnb-choice, .tnb-watch .tnb-choice:disabled {
  opacity: 1 !important; background: #FFFFFF !important; color: #111111 !important;
  border: 3px solid #3A3A3A !important; border-radius: 10px; height: auto !important; min-height: 72px;
  font-size: clamp(22px, 1.6vw, 34px) !important; white-space: normal; text-align: left; padding: 8px 16px;
  margin: 4px 0; cursor: default; box-shadow: none; }
.tnb-watch .tnb-choice:nth-child(1) { border-left: 14px solid #0077BB !important; }
.tnb-watch .tnb-choice:nth-child(2) { border-left: 14px solid #EE7733 !important; }
.tnb-watch .tnb-choice:nth-child(3) { border-left: 14px solid #009988 !important; }
.tnb-watch .tnb-choice:nth-child(4) { border-left: 14px solid #CC3311 !important; }
.tnb-watch .tnb-choice.mod-info { background: #DDEEFF !important; }
.tnb-watch .tnb-qtext { font-size: clamp(24px, 1.7vw, 36px); }
.tnb-watch .tnb-timer, .tnb-watch .tnb-timer .widget-html-content { font-size: clamp(26px, 1.8vw, 40px); }
.tnb-teacher code { overflow-wrap: anywhere; word-break: break-all; }
.tnb-teacher, .tnb-teacher-folded { max-width: 100%; box-sizing: border-box; }
</style>
"""
