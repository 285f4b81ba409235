//! The Play table as a player sees it (issue 36), in Chromium
//! (WATERGATE_REQUIRE_BROWSER=1: never skipped in CI):
//!
//! - at 1366×768 the whole table fits the window, nothing scrolls and no
//!   panel is cut off; and no text of the board or the track overlaps
//!   another text or a token (their bounding boxes are measured at every
//!   decision of two whole games, one per seat, played by clicking the
//!   table);
//! - a phone (390×844) gets a layout of its own — one column, the track as
//!   a ladder — where nothing is cut off or overlaps, and a whole game is
//!   played by clicking the table;
//! - the opponent's turn plays back step by step, each step with its
//!   narration, at the speed the player sets, and not at all when it is off.

use crate::click_play::{click_to_the_end, moved_on, start, step};
use crate::common;

use common::browser::{run, until_none_found, viewport, wait_css, wait_for, wait_in_page};
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client as Browser, Locator};
use serde_json::Value;
use std::time::{Duration, Instant};

fn e(e: fantoccini::error::CmdError) -> String {
    e.to_string()
}

/// Pushes onto `problems` every text of the board or the track that
/// overlaps another text or a token (a token's own letters excepted), is
/// cut off its drawing, and every two tokens of one drawing that overlap.
/// Boxes touching at an edge do not overlap.
pub(crate) const OVERLAPS: &str = r#"
const over = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.05
  && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.05;
const name = (el) => {
  const t = el.closest('[data-anim], [data-space], [data-target]');
  const words = el.tagName === 'text' ? ` "${el.textContent.trim()}"` : '';
  return `${el.tagName}${words}${t ? ` of ${t.dataset.anim || t.dataset.space || t.dataset.target}` : ''}`;
};
const drawings = [...document.querySelectorAll('svg.board, svg.track')];
if (drawings.length !== 2) problems.push(`${drawings.length} drawings of the board and the track`);
for (const s of drawings) {
  const box = s.getBoundingClientRect();
  const texts = [...s.querySelectorAll('text')].filter((t) => t.textContent.trim())
    .map((el) => ({ el, r: el.getBoundingClientRect() }));
  const things = [...s.querySelectorAll('g.token, g.marker, g.picture-tile')]
    .map((el) => ({ el, r: el.getBoundingClientRect() }));
  // The track always holds the initiative token or the momentum token;
  // the board may be empty.
  const tokensAlways = s.classList.contains('track');
  if (!texts.length || (tokensAlways && !things.length)) problems.push(`${s.getAttribute('class')}: ${texts.length} texts, ${things.length} tokens`);
  for (const t of texts) {
    if (t.r.left < box.left - 0.5 || t.r.right > box.right + 0.5 || t.r.top < box.top - 0.5 || t.r.bottom > box.bottom + 0.5) {
      problems.push(`${name(t.el)} is cut off its drawing`);
    }
  }
  texts.forEach((a, i) => texts.slice(i + 1).forEach((b) => {
    if (over(a.r, b.r)) problems.push(`${name(a.el)} overlaps ${name(b.el)}`);
  }));
  for (const t of texts) for (const k of things) {
    if (!k.el.contains(t.el) && over(t.r, k.r)) problems.push(`${name(t.el)} overlaps the token ${name(k.el)}`);
  }
  things.forEach((a, i) => things.slice(i + 1).forEach((b) => {
    if (over(a.r, b.r)) problems.push(`${name(a.el)} overlaps ${name(b.el)}`);
  }));
}
"#;

/// At 1366×768: the page does not scroll, and every panel of the table,
/// every card of the hand, is inside the window and not cut off by the
/// column that holds it (Play's table, and Puzzles' and Replay's).
pub(crate) const FITS_THE_WINDOW: &str = r#"
const de = document.documentElement;
if (innerWidth !== 1366 || innerHeight !== 768) problems.push(`the window is ${innerWidth}×${innerHeight}`);
if (de.scrollWidth > innerWidth || de.scrollHeight > innerHeight) {
  problems.push(`the page scrolls: ${de.scrollWidth}×${de.scrollHeight} in a ${innerWidth}×${innerHeight} window`);
}
for (const el of document.querySelectorAll('.play .bar, .play .panel, .play .outcome, .hand article.card')) {
  const r = el.getBoundingClientRect();
  const what = el.className + (el.dataset.card ? ` ${el.dataset.card}` : '');
  if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) {
    problems.push(`${what} is off the window: ${JSON.stringify(r)}`);
  }
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    if (getComputedStyle(p).overflow === 'visible') continue;
    const c = p.getBoundingClientRect();
    if (r.bottom > c.bottom + 0.5 || r.right > c.right + 0.5) problems.push(`${what} is cut off by ${p.className}`);
  }
}
// The decision's place is a replay's controls on Replay.
const layout = ['.track-panel', '.board-panel', '#decision, .replay-controls', '.hand'].map((s) => document.querySelector(s).getBoundingClientRect());
if (!(layout[0].bottom <= layout[1].top && layout[2].left >= layout[1].right && layout[3].left >= layout[1].right)) {
  problems.push('not the table layout: the track above the board, the decision and the hand beside it');
}
"#;

/// On a phone (390×844): nothing is wider than the screen, so nothing is
/// cut off at a side and the page does not scroll sideways; the layout is
/// the phone's own: one column, the decision first, then the track (drawn
/// as a ladder), the board and the hand, each as wide as the screen.
pub(crate) const FITS_A_PHONE: &str = r#"
const de = document.documentElement;
if (innerWidth !== 390 || innerHeight !== 844) problems.push(`the window is ${innerWidth}×${innerHeight}`);
if (de.scrollWidth > de.clientWidth) problems.push(`the page scrolls sideways: ${de.scrollWidth} in ${de.clientWidth}`);
for (const el of document.querySelectorAll('.play .bar, .play .panel, .play .outcome, .hand article.card, svg.board, svg.track')) {
  const r = el.getBoundingClientRect();
  if (r.left < -0.5 || r.right > de.clientWidth + 0.5) problems.push(`${el.getAttribute('class')} is cut off at a side: ${r.left}…${r.right}`);
}
if (!document.querySelector('svg.track.ladder')) problems.push('the track is not drawn as a ladder');
const col = ['#decision, .replay-controls', '.track-panel', '.board-panel', '.hand'].map((s) => document.querySelector(s).getBoundingClientRect());
if (!col.every((r, i) => Math.abs(r.left - col[0].left) < 1 && Math.abs(r.width - col[0].width) < 1 && (i === 0 || r.top >= col[i - 1].bottom))) {
  problems.push(`not one column: ${JSON.stringify(col.map((r) => [r.left, r.top, r.width]))}`);
}
"#;

/// On a phone the decision is the column's first panel: after a click
/// lower down (a card of the hand, a space of the board) the next
/// decision's prompt is brought back into view, not left above the screen.
pub(crate) const PROMPT_IN_VIEW: &str = r#"
const p = document.querySelector('#prompt');
if (!p) problems.push('no prompt');
else {
  const r = p.getBoundingClientRect();
  if (r.bottom <= 0 || r.top >= innerHeight) problems.push(`the prompt is out of view: ${r.top}…${r.bottom} in a window ${innerHeight} high`);
}
"#;

/// A check script: the parts above, each pushing its problems.
pub(crate) fn check(parts: &[&str]) -> String {
    let blocks: Vec<String> = parts.iter().map(|p| format!("{{\n{p}\n}}")).collect();
    format!(
        "const problems = [];\n{}\nreturn problems;",
        blocks.join("\n")
    )
}

/// Issue 36: the table fits a 1366×768 screen without scrolling, and no
/// text of the board or the track overlaps another text or a token — at
/// every decision of a whole game for each seat, played by clicking the
/// table (its tokens on the track, its pins on the board, its cards).
#[test]
fn the_table_fits_1366_by_768_and_no_label_overlaps_a_label_or_a_token() {
    run("table_fits_1366x768", &[], |c, url| async move {
        c.goto(&url).await.map_err(e)?;
        viewport(&c, 1366, 768).await?;
        let script = check(&[OVERLAPS, FITS_THE_WINDOW]);
        let mut decisions = 0;
        // The README's picture of Play is the Editor's table.
        for (mode, seed, picture) in [("editor", 23, Some("play")), ("nixon", 31, None)] {
            decisions += click_to_the_end(&c, &url, mode, seed, Some(&script), picture).await?;
        }
        eprintln!("{decisions} decisions measured at 1366×768");
        Ok(())
    });
}

/// The checks above can fail: a label put on a token, and a panel grown
/// past the window, are reported.
#[test]
fn the_layout_checks_find_a_label_on_a_token_and_a_page_that_scrolls() {
    run("table_checks_fail", &[], |c, url| async move {
        c.goto(&url).await.map_err(e)?;
        viewport(&c, 1366, 768).await?;
        start(&c, &url, "editor", 23).await?;
        wait_css(&c, "#decision button.option", 30).await?;
        let script = check(&[OVERLAPS, FITS_THE_WINDOW]);
        let clean = c.execute(&script, vec![]).await.map_err(e)?;
        if clean != serde_json::json!([]) {
            return Err(format!("the first position already fails: {clean}"));
        }
        // A space's name written again over the initiative token.
        c.execute(
            "const g = document.querySelector('svg.track g.marker.initiative > g'); \
             const [, x, y] = /translate\\(([-\\d.]+),([-\\d.]+)\\)/.exec(g.getAttribute('transform')); \
             const t = document.createElementNS('http://www.w3.org/2000/svg', 'text'); \
             t.textContent = 'E9'; t.setAttribute('x', x); t.setAttribute('y', y); \
             g.ownerSVGElement.append(t);",
            vec![],
        )
        .await
        .map_err(e)?;
        let found = c.execute(&script, vec![]).await.map_err(e)?;
        if !found.to_string().contains("\\\"E9\\\" overlaps the token") {
            return Err(format!("a label on a token is not found: {found}"));
        }
        // The hand grown past the window's bottom.
        c.execute(
            "document.querySelector('.hand').style.minHeight = '900px'",
            vec![],
        )
        .await
        .map_err(e)?;
        let found = c.execute(&script, vec![]).await.map_err(e)?;
        let said = found.to_string();
        if !said.contains("the page scrolls") && !said.contains("cut off") {
            return Err(format!(
                "a table taller than the window is not found: {found}"
            ));
        }
        Ok(())
    });
}

/// Issue 36: a phone (390×844) gets a layout of its own — one column, the
/// track as a ladder — where nothing is cut off or overlaps, at every
/// decision of a whole game played there by clicking the table; and each
/// decision's prompt is in view when it comes.
#[test]
fn a_phone_gets_a_layout_of_its_own_and_a_whole_game_is_clicked_on_it() {
    run("table_phone", &[], |c, url| async move {
        c.goto(&url).await.map_err(e)?;
        viewport(&c, 390, 844).await?;
        let script = check(&[OVERLAPS, FITS_A_PHONE, PROMPT_IN_VIEW]);
        let n = click_to_the_end(&c, &url, "editor", 23, Some(&script), Some("play-phone")).await?;
        eprintln!("{n} decisions measured at 390×844");
        Ok(())
    });
}

/// In a window too short for the whole table (a 1366×768 laptop's browser
/// leaves about 630 px): the page does not scroll, no panel of a column is
/// drawn over another (a column that does not fit scrolls instead), and
/// every button of the decision, scrolled to, is the thing a click there
/// reaches (the hand once covered the game-over buttons).
pub(crate) const NOTHING_COVERED: &str = r#"
const de = document.documentElement;
if (de.scrollWidth > innerWidth || de.scrollHeight > innerHeight) {
  problems.push(`the page scrolls: ${de.scrollWidth}×${de.scrollHeight} in a ${innerWidth}×${innerHeight} window`);
}
for (const col of document.querySelectorAll('.side, .table-aside')) {
  const parts = [...col.children].filter((el) => el.getBoundingClientRect().height > 0);
  parts.forEach((a, i) => parts.slice(i + 1).forEach((b) => {
    const r = a.getBoundingClientRect(), t = b.getBoundingClientRect();
    if (Math.min(r.bottom, t.bottom) - Math.max(r.top, t.top) > 0.5) problems.push(`${a.className} is drawn over ${b.className}`);
  }));
}
for (const b of document.querySelectorAll('#decision button:not(.option)')) {
  b.scrollIntoView({ block: 'nearest' });
  const r = b.getBoundingClientRect();
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (at !== b && !b.contains(at)) problems.push(`the button ${b.id || b.textContent} is covered by ${at && at.className}`);
}
"#;

/// A laptop's browser window (1366×768 screen, 630 px of window): a whole
/// game is clicked with nothing covered at any decision, and at its end the
/// game-over buttons (New game, Download the log) are in reach.
#[test]
fn a_laptop_window_covers_no_panel_or_button_through_to_the_game_over() {
    run("table_laptop", &[], |c, url| async move {
        c.goto(&url).await.map_err(e)?;
        viewport(&c, 1366, 630).await?;
        let script = check(&[NOTHING_COVERED]);
        let n = click_to_the_end(&c, &url, "editor", 23, Some(&script), None).await?;
        let problems: Value = c.execute(&script, vec![]).await.map_err(e)?;
        if problems.as_array().is_none_or(|p| !p.is_empty()) {
            return Err(format!("at the game's end: {problems}"));
        }
        for id in ["new-game", "save-log"] {
            c.find(Locator::Id(id))
                .await
                .map_err(|_| format!("no #{id} at the game's end"))?;
        }
        eprintln!("{n} decisions measured at 1366×630, and the game's end");
        Ok(())
    });
}

/// What the page drew, one entry per drawing of the table (a
/// MutationObserver on the page, installed by the test): when, its step,
/// the move it plays back (`i/n`, or null for the view itself), the banner
/// over the board (who moved, and what they were told) and how many moving
/// copies (motion.js's ghosts) had flown so far.
const RECORD: &str = r#"
window.drawn = [];
window.flown = 0;
new MutationObserver(() => {
  const p = document.querySelector('div.play');
  if (!p || p === window.lastDrawn) return;
  window.lastDrawn = p;
  const b = document.getElementById('banner');
  window.drawn.push({
    t: performance.now(), step: Number(p.dataset.step), playback: p.dataset.playback || null,
    who: b ? b.querySelector('.who').textContent : null,
    said: b ? [...b.querySelectorAll('.said')].map((d) => d.textContent) : [],
  });
}).observe(document.getElementById('app'), { childList: true, subtree: true }); // the table is drawn in the visit's own element (app.js)
new MutationObserver((ms) => {
  for (const m of ms) for (const n of m.addedNodes) if (n.classList && n.classList.contains('ghost')) window.flown++;
}).observe(document.body, { childList: true });
"#;

/// Waits until the page rests after a choice: a new step drawn, no move
/// being played back, nothing flying, the decision's options there.
async fn rested(c: &Browser, before: &Option<String>) -> Result<(), String> {
    moved_on(c, before, 0).await?;
    calm(c).await
}

/// Waits until the page rests: no move being played back, nothing flying,
/// no banner, the decision's options (or the game's end) there.
async fn calm(c: &Browser) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let calm = c
            .execute(
                "const p = document.querySelector('div.play'); \
                 return !!p && !p.dataset.playback && !document.querySelector('.ghost') \
                   && !document.getElementById('banner') \
                   && (!!document.querySelector('#decision button.option') || !!document.getElementById('outcome'))",
                vec![],
            )
            .await
            .map_err(e)?;
        if calm == Value::Bool(true) {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err("the page did not come to rest after a choice".into());
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Chooses the first option and waits until the page rests; returns what
/// the page drew meanwhile and how many copies flew.
async fn choose_first(c: &Browser) -> Result<(Vec<Value>, u64), String> {
    c.execute("window.drawn = []; window.flown = 0;", vec![])
        .await
        .map_err(e)?;
    let before = step(c).await;
    wait_css(c, "#decision button.option", 30)
        .await?
        .click()
        .await
        .map_err(e)?;
    rested(c, &before).await?;
    let v = c
        .execute("return [window.drawn, window.flown]", vec![])
        .await
        .map_err(e)?;
    Ok((
        v[0].as_array().cloned().unwrap_or_default(),
        v[1].as_u64().unwrap_or(0),
    ))
}

/// Picks `speed` in the table's own control; it is kept for the next visit.
async fn set_speed(c: &Browser, speed: &str) -> Result<(), String> {
    c.find(Locator::Css(&format!("#speed option[value='{speed}']")))
        .await
        .map_err(e)?
        .click()
        .await
        .map_err(e)?;
    let kept = c
        .execute("return localStorage.getItem('watergate.speed')", vec![])
        .await
        .map_err(e)?;
    if kept != Value::String(speed.into()) {
        return Err(format!("the speed kept is {kept}, not {speed}"));
    }
    Ok(())
}

/// Issue 36: after the player's choice the opponent's turn plays back step
/// by step — each of its moves drawn as the table stood after it, with a
/// banner naming who moved and the narration of that move, the pieces
/// gliding — at the speed the player sets; "off" shows the result at once.
#[test]
fn the_opponent_s_turn_plays_back_step_by_step_with_its_narration() {
    run("playback", &[], |c, url| async move {
        start(&c, &url, "editor", 23).await?;
        wait_css(&c, "#decision button.option", 30).await?;
        c.execute(RECORD, vec![]).await.map_err(e)?;
        set_speed(&c, "normal").await?;
        let mut checked = false;
        for n in 0..40 {
            let (drawn, flown) = choose_first(&c).await?;
            let frames: Vec<&Value> = drawn.iter().filter(|d| !d["playback"].is_null()).collect();
            if frames.is_empty() {
                continue;
            }
            let fin = drawn.last().ok_or("nothing drawn")?;
            let count: usize = frames[0]["playback"]
                .as_str()
                .and_then(|p| p.split('/').nth(1))
                .and_then(|k| k.parse().ok())
                .ok_or("no move count")?;
            // Every move but the last drawn in turn, steps one by one,
            // then the view itself, at the step after the last of them.
            if frames.len() != count - 1 || drawn.len() != count {
                return Err(format!("choice {n}: {count} moves, drawn {drawn:?}"));
            }
            let first = frames[0]["step"].as_i64().unwrap();
            for (i, f) in frames.iter().enumerate() {
                if f["playback"] != Value::String(format!("{}/{count}", i + 1))
                    || f["step"].as_i64() != Some(first + i as i64)
                {
                    return Err(format!("choice {n}: move {i} drawn as {f}"));
                }
            }
            if fin["step"].as_i64() != Some(first + count as i64 - 1) {
                return Err(format!("choice {n}: the view after the moves: {fin}"));
            }
            // Each step has its banner: who moved, and what they did, in
            // the order the narration tells it.
            let log: Vec<String> = c
                .execute(
                    "return [...document.querySelectorAll('#log li')].map((li) => li.textContent).reverse()",
                    vec![],
                )
                .await
                .map_err(e)?
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap_or("").to_string())
                .collect();
            let mut at = 0;
            let mut nixon = Vec::new();
            for (i, d) in drawn.iter().enumerate() {
                let who = d["who"].as_str().unwrap_or("");
                if !who.ends_with(&format!("step {} of {count}", i + 1)) {
                    return Err(format!("choice {n}: drawing {i}'s banner reads {who:?}"));
                }
                let said: Vec<String> = serde_json::from_value(d["said"].clone()).unwrap();
                if who.starts_with("Nixon") {
                    if said.is_empty() {
                        return Err(format!("choice {n}: Nixon's move {i} is told nothing"));
                    }
                    nixon.push(d["t"].as_f64().unwrap());
                }
                for line in said {
                    let Some(k) = log[at..].iter().position(|l| *l == line) else {
                        return Err(format!(
                            "choice {n}: move {i} tells {line:?}, not next in the narration {log:?}"
                        ));
                    };
                    at += k + 1;
                }
            }
            // The opponent's moves stay a while each (normal: a second),
            // and the pieces glide.
            if nixon.len() < 2 {
                continue;
            }
            if let Some(w) = nixon.windows(2).find(|w| w[1] - w[0] < 900.0) {
                return Err(format!(
                    "choice {n}: Nixon's moves shown {} ms apart",
                    w[1] - w[0]
                ));
            }
            if flown == 0 {
                return Err(format!("choice {n}: nothing glided"));
            }
            eprintln!("choice {n}: {count} moves played back, {flown} glides");
            checked = true;
            break;
        }
        if !checked {
            return Err("no turn of Nixon's of two moves or more in 40 choices".into());
        }
        // Skip ends the playback at once.
        let mut skipped = false;
        for _ in 0..40 {
            let before = step(&c).await;
            c.execute("window.drawn = [];", vec![]).await.map_err(e)?;
            wait_css(&c, "#decision button.option", 30)
                .await?
                .click()
                .await
                .map_err(e)?;
            moved_on(&c, &before, 0).await?;
            if let Ok(skip) = c.find(Locator::Css("#skip")).await {
                let t = Instant::now();
                skip.click().await.map_err(e)?;
                rested(&c, &before).await?;
                if t.elapsed() > Duration::from_millis(1500) {
                    return Err(format!("Skip took {:?}", t.elapsed()));
                }
                skipped = true;
                break;
            }
            rested(&c, &before).await?;
        }
        if !skipped {
            return Err("no playback to skip in 40 choices".into());
        }
        // Off: the result at once, whatever the opponent did.
        set_speed(&c, "off").await?;
        for n in 0..10 {
            let (drawn, flown) = choose_first(&c).await?;
            if drawn.len() != 1 || flown != 0 || !drawn[0]["playback"].is_null() {
                return Err(format!(
                    "speed off, choice {n}: drawn {drawn:?}, {flown} glides"
                ));
            }
            if c.find(Locator::Css("#outcome")).await.is_ok() {
                break;
            }
        }
        Ok(())
    });
}

/// Issue 36: "at a speed the player sets (and off for those who want
/// none)". A browser that asks for reduced motion (Chromium's
/// `--force-prefers-reduced-motion`) gets no playback by default, and even
/// at a speed the player picks nothing glides: the moves are still drawn
/// one by one, each in place.
#[test]
fn a_browser_that_asks_for_reduced_motion_gets_no_gliding() {
    common::browser::run_with(
        "reduced_motion",
        &[],
        &["--force-prefers-reduced-motion"],
        |c, url| async move {
            start(&c, &url, "editor", 23).await?;
            wait_css(&c, "#decision button.option", 30).await?;
            let reduced = c
                .execute(
                    "return matchMedia('(prefers-reduced-motion: reduce)').matches",
                    vec![],
                )
                .await
                .map_err(e)?;
            if reduced != Value::Bool(true) {
                return Err("the browser does not ask for reduced motion".into());
            }
            // The speed nobody chose: the test's start() chose "off"; forget
            // it and draw the page again (the game stays in this tab).
            c.execute("localStorage.removeItem('watergate.speed')", vec![])
                .await
                .map_err(e)?;
            c.refresh().await.map_err(e)?;
            wait_css(&c, "#decision button.option", 30).await?;
            let default = c
                .execute("return document.getElementById('speed').value", vec![])
                .await
                .map_err(e)?;
            if default != Value::String("off".into()) {
                return Err(format!(
                    "the default speed under reduced motion is {default}"
                ));
            }
            c.execute(RECORD, vec![]).await.map_err(e)?;
            set_speed(&c, "normal").await?;
            let mut stepped = false;
            for n in 0..40 {
                let (drawn, flown) = choose_first(&c).await?;
                if flown != 0 {
                    return Err(format!("choice {n}: {flown} glides under reduced motion"));
                }
                if drawn.iter().any(|d| !d["playback"].is_null()) {
                    stepped = true;
                    break;
                }
                if c.find(Locator::Css("#outcome")).await.is_ok() {
                    break;
                }
            }
            if !stepped {
                return Err("no turn of Nixon's was played back in 40 choices".into());
            }
            Ok(())
        },
    );
}

/// Problem found by the studio's audit: in a 1024×768 window (a small
/// laptop's) the column beside the board, two cards of the hand a row,
/// left the option list a row or less, and the board, as high as its row,
/// was wider than its column and lay under the momentum cards and the
/// piles. At a decision: at least four options (all, if fewer) show in the
/// list without scrolling it, each button the thing a click on it
/// reaches; and the board's panel ends where the column beside it begins.
pub(crate) const OPTIONS_IN_VIEW: &str = r#"
const list = document.querySelector('#decision .options');
if (list) {
  const box = list.getBoundingClientRect();
  const rows = [...list.children];
  const want = Math.min(4, rows.length);
  const shown = rows.filter((li) => {
    const r = li.getBoundingClientRect(), b = li.querySelector('button.option');
    if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5 || r.bottom > innerHeight + 0.5) return false;
    const c = b.getBoundingClientRect();
    const at = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
    return !!at && b.contains(at);
  }).length;
  if (shown < want) problems.push(`${shown} of ${rows.length} options show in a list ${box.height} px high (${want} wanted)`);
}
const board = document.querySelector('.board-panel').getBoundingClientRect();
const aside = document.querySelector('.table-aside').getBoundingClientRect();
if (board.right > aside.left + 0.5) problems.push(`the board lies ${board.right - aside.left} px under the column beside it`);
"#;

/// The audit's 1024×768 window: at every decision of a whole game for each
/// seat, four options show (the hand's cards drawn smaller where it takes
/// that), the board is clear of the column beside it, and nothing is
/// covered; and a table drawn in a larger window fits itself again when
/// the window is made that size.
#[test]
fn a_1024_by_768_window_shows_four_options_and_the_board_clear_of_the_column_beside_it() {
    run("table_1024x768", &[], |c, url| async move {
        c.goto(&url).await.map_err(e)?;
        let script = check(&[OPTIONS_IN_VIEW, NOTHING_COVERED]);
        // Drawn at 1440×900, then the window shrunk under the table.
        viewport(&c, 1440, 900).await?;
        start(&c, &url, "editor", 23).await?;
        wait_css(&c, "#decision button.option", 30).await?;
        viewport(&c, 1024, 768).await?;
        until_none_found(&c, &script, "after the window shrank to 1024×768").await?;
        let mut decisions = 0;
        for (mode, seed) in [("editor", 23), ("nixon", 31)] {
            decisions += click_to_the_end(&c, &url, mode, seed, Some(&script), None).await?;
        }
        eprintln!("{decisions} decisions measured at 1024×768");
        Ok(())
    });
}

/// A laptop's browser window (1366×768 screen, 630 px of window): a cap on
/// the option list's height left some decisions three options. At every
/// decision of a whole game for each seat, four options show, the board is
/// clear of the column beside it, and nothing is covered.
#[test]
fn a_laptop_window_shows_four_options_at_every_decision_on_each_side() {
    run("table_laptop_options", &[], |c, url| async move {
        c.goto(&url).await.map_err(e)?;
        viewport(&c, 1366, 630).await?;
        let script = check(&[OPTIONS_IN_VIEW, NOTHING_COVERED]);
        let mut decisions = 0;
        for (mode, seed) in [("editor", 23), ("nixon", 31)] {
            decisions += click_to_the_end(&c, &url, mode, seed, Some(&script), None).await?;
        }
        eprintln!("{decisions} decisions measured at 1366×630");
        Ok(())
    });
}

/// The option list takes its scroll bar's room only when it scrolls: a
/// list that does not leaves the whole of its width to its rows (its
/// `clientWidth` is its width less its borders), where it used to keep
/// some 15 px for a bar it did not have. Counts the lists seen either way
/// (`window.lists`).
const GUTTER_ONLY_WHEN_SCROLLING: &str = r#"
const list = document.querySelector('#decision .options');
if (list) {
  const s = getComputedStyle(list);
  const room = list.offsetWidth - parseFloat(s.borderLeftWidth) - parseFloat(s.borderRightWidth);
  const scrolls = list.scrollHeight > list.clientHeight;
  window.lists = window.lists || { scrolling: 0, still: 0 };
  window.lists[scrolls ? 'scrolling' : 'still'] += 1;
  if (!scrolls && Math.abs(list.clientWidth - room) > 0.5) {
    problems.push(`a list of ${list.children.length} options that does not scroll keeps ${room - list.clientWidth} px of its ${room} for a scroll bar`);
  }
}
"#;

/// At every decision of a whole game in a 1366×768 window, a list of a few
/// options (it does not scroll) gives its rows the scroll bar's room, and
/// a long one still shows four options.
#[test]
fn the_option_list_keeps_room_for_a_scroll_bar_only_when_it_scrolls() {
    run("table_option_gutter", &[], |c, url| async move {
        c.goto(&url).await.map_err(e)?;
        viewport(&c, 1366, 768).await?;
        let script = check(&[GUTTER_ONLY_WHEN_SCROLLING, OPTIONS_IN_VIEW]);
        let n = click_to_the_end(&c, &url, "editor", 23, Some(&script), None).await?;
        let lists = c
            .execute("return window.lists || {}", vec![])
            .await
            .map_err(e)?;
        if lists["still"].as_u64().unwrap_or(0) == 0 {
            return Err(format!(
                "no list without a scroll bar in {n} decisions: {lists}"
            ));
        }
        eprintln!("{n} decisions at 1366×768, option lists {lists}");
        Ok(())
    });
}

/// Waits in the page, after a choice made at step `arguments[0]`, until its
/// answer is drawn with the next decision's options while pieces still
/// glide (a moving copy, motion.js's `.ghost`, is on the page); the
/// playback of the opponent's moves before it is skipped. Answers where to
/// click: a target on the table whose drawn thing is under a flying copy
/// (it stays there, unseen, until the copy lands), else the first option's
/// button; and every such target that a click at its thing's middle would
/// not reach. `{ ghosts: 0 }` when nothing glided; `{ end: true }` at the
/// game's end.
const MID_GLIDE: &str = r#"
if (document.querySelector('#outcome')) return { end: true };
const skip = document.getElementById('skip');
if (skip) { skip.click(); return undefined; }
const p = document.querySelector('div.play');
if (!p || p.dataset.step === arguments[0] || p.dataset.playback || !document.querySelector('#decision button.option')) return undefined;
if (!document.querySelector('.ghost')) return { ghosts: 0, step: p.dataset.step };
const unseen = (el) => { const s = getComputedStyle(el); return s.visibility === 'hidden' || s.opacity === '0'; };
const middle = (el) => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
const flying = [...p.querySelectorAll('.targetable')]
  .filter((t) => t.closest('svg.track, svg.board, .in-play, .hand, .momentum, .piles'))
  .flatMap((t) => [t, ...t.querySelectorAll('[data-anim]')].filter((a) => a.matches('[data-anim]') && unseen(a)).map((a) => [t, a]));
const missed = flying.filter(([t, a]) => { const [x, y] = middle(a); const at = document.elementFromPoint(x, y); return !at || !t.contains(at); })
  .map(([t]) => t.getAttribute('aria-label'));
const one = flying.find(([t]) => !t.dataset.options.includes(' '));
const button = document.querySelector('#decision button.option');
const [x, y] = middle(one ? one[1] : button);
return { ghosts: document.querySelectorAll('.ghost').length, step: p.dataset.step, flying: flying.length, missed,
  on: one ? one[0].getAttribute('aria-label') : `the option button ${button.textContent}`, table: !!one, x, y };
"#;

/// Problem found by the studio's audit: a click on the table while a move
/// glides was lost. The answer's table was drawn, its options live, but
/// the page took no choice until its pieces had landed (and the banner of
/// the opponent's moves had gone), and a thing still gliding was hidden
/// under its moving copy, so a click on it went to what lay beneath. Now
/// a click then is the next choice: at the slow speed (700 ms glides), a
/// real mouse click made while copies still fly — on a gliding target of
/// the table where there is one — moves the game on, and a click at any
/// gliding target's middle reaches it.
#[test]
fn a_click_while_the_pieces_still_glide_is_the_next_choice() {
    run("click_mid_glide", &[], |c, url| async move {
        start(&c, &url, "editor", 23).await?;
        wait_css(&c, "#decision button.option", 30).await?;
        set_speed(&c, "slow").await?;
        // Whether copies were flying at each press of the mouse.
        c.execute(
            "window.pressed = []; \
             document.addEventListener('pointerdown', () => window.pressed.push(document.querySelectorAll('.ghost').length), true);",
            vec![],
        )
        .await
        .map_err(e)?;
        let mid_glide = wait_in_page(MID_GLIDE);
        let (mut taken, mut on_table) = (0, 0);
        for n in 0..40 {
            if taken >= 3 && on_table >= 1 {
                break;
            }
            let before = step(&c).await;
            wait_css(&c, "#decision button.option", 30)
                .await?
                .click()
                .await
                .map_err(e)?;
            let before = before.map_or(Value::Null, Value::String);
            let got = wait_for(&c, &mid_glide, vec![before], &format!("choice {n}")).await?;
            if got.get("end").is_some() {
                break;
            }
            let drawn = got["step"].as_str().map(str::to_string);
            if got["ghosts"].as_u64() == Some(0) {
                calm(&c).await?;
                continue;
            }
            if got["missed"].as_array().is_none_or(|m| !m.is_empty()) {
                return Err(format!(
                    "choice {n}: a click at a gliding thing would not reach it: {}",
                    got["missed"]
                ));
            }
            let (x, y) = (
                got["x"].as_f64().unwrap_or(0.0),
                got["y"].as_f64().unwrap_or(0.0),
            );
            let press = MouseActions::new("mouse".into())
                .then(PointerAction::MoveTo {
                    duration: None,
                    x: x.round(),
                    y: y.round(),
                })
                .then(PointerAction::Down {
                    button: MOUSE_BUTTON_LEFT,
                })
                .then(PointerAction::Up {
                    button: MOUSE_BUTTON_LEFT,
                });
            c.perform_actions(press).await.map_err(e)?;
            let flew = c
                .execute("return window.pressed[window.pressed.length - 1]", vec![])
                .await
                .map_err(e)?;
            if flew.as_u64().unwrap_or(0) == 0 {
                // Too late: the pieces had landed, the click is an
                // ordinary one. Once its answer is drawn, another choice.
                let deadline = Instant::now() + Duration::from_secs(3);
                while step(&c).await == drawn && Instant::now() < deadline {
                    tokio::time::sleep(Duration::from_millis(25)).await;
                }
                calm(&c).await?;
                continue;
            }
            moved_on(&c, &drawn, n + 1)
                .await
                .map_err(|x| format!("choice {n}, clicked on {} mid-glide: {x}", got["on"]))?;
            taken += 1;
            if got["table"] == Value::Bool(true) {
                on_table += 1;
            }
            rested(&c, &drawn).await?;
        }
        if taken < 3 || on_table < 1 {
            return Err(format!(
                "{taken} clicks made mid-glide, {on_table} of them on a gliding target of the table"
            ));
        }
        eprintln!("{taken} clicks mid-glide taken, {on_table} on a gliding target");
        Ok(())
    });
}

/// Problem found by the studio's audit: at 1024×768 the momentum cards'
/// space titles and the names of the hand's cards were cut mid-word (a
/// word broken across two lines, or running out of its box). Every word
/// of them stays whole on one line, inside its box.
pub(crate) const NO_WORD_CUT: &str = r#"
for (const el of document.querySelectorAll('.momentum-card .title, .hand .card .name')) {
  if (!el.checkVisibility()) continue;
  const box = el.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) continue;
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const re = /\S+/g;
    let m;
    while ((m = re.exec(n.data))) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
      if (lines.size > 1) problems.push(`"${m[0]}" of "${el.textContent}" is broken across ${lines.size} lines`);
      const u = r.getBoundingClientRect();
      if (u.right > box.right + 1 || u.left < box.left - 1) problems.push(`"${m[0]}" of "${el.textContent}" runs ${Math.round(u.right - box.right)} px out of its box`);
    }
  }
}
"#;

#[test]
fn at_1024_by_768_no_momentum_title_or_card_name_is_cut_mid_word() {
    run("table_1024x768_words", &[], |c, url| async move {
        c.goto(&url).await.map_err(e)?;
        viewport(&c, 1024, 768).await?;
        let script = check(&[NO_WORD_CUT]);
        let mut decisions = 0;
        for (mode, seed) in [("editor", 23), ("nixon", 31)] {
            decisions += click_to_the_end(&c, &url, mode, seed, Some(&script), None).await?;
        }
        eprintln!("{decisions} decisions measured at 1024×768");
        Ok(())
    });
}
