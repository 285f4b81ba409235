//! Play in a real browser (headless Chromium over WebDriver): a whole game
//! played by clicking, against the random agent, until the page shows who
//! won; and hotseat's handover screen between the seats. Skipped with a
//! notice when Chromium is missing, unless WATERGATE_REQUIRE_BROWSER=1.
//! (The README's pictures: `WATERGATE_PAGE_SHOTS`, in common/browser.rs.)

use crate::common;

use common::browser::{element, moved_on, moves_off, run, step, wait_css, wait_for, wait_in_page};
use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::{Client, Locator};
use std::time::Duration;

/// Clicks the first legal option until the game is over; returns the
/// outcome's text and the number of clicks.
async fn click_to_the_end(c: &Client) -> Result<(String, usize), String> {
    // One script waits in the page for what comes next and reads it.
    let next = wait_in_page(
        "const outcome = document.querySelector('#outcome'); \
         if (outcome) return { outcome: outcome.innerText }; \
         const ready = document.querySelector('#handover-ready'); \
         if (ready) return { handover: ready }; \
         const option = document.querySelector('button.option'); \
         if (!option) return undefined; \
         const p = document.querySelector('div.play'); \
         return { option, step: p ? p.getAttribute('data-step') : null };",
    );
    let mut clicks = 0;
    loop {
        let now = wait_for(c, &next, vec![], &format!("after click {clicks}")).await?;
        if let Some(text) = now.get("outcome") {
            return Ok((text.as_str().unwrap_or_default().to_string(), clicks));
        }
        if clicks > 3000 {
            return Err("no end after 3000 clicks".into());
        }
        if let Some(ready) = element(c, &now["handover"]) {
            ready.click().await.map_err(|e| e.to_string())?;
            wait_css(c, "div.play", 30).await?;
            continue;
        }
        let option = element(c, &now["option"]).ok_or("no option to click")?;
        option
            .click()
            .await
            .map_err(|e| format!("click {clicks}: {e}"))?;
        clicks += 1;
        // The page is drawn again once the server answered.
        let before = now["step"].as_str().map(str::to_string);
        moved_on(c, &before, clicks, "#handover-ready").await?;
    }
}

#[test]
fn a_whole_game_is_played_by_clicking_against_the_random_agent() {
    run("whole_game_by_clicking", &[], |c, url| async move {
        c.goto(&format!("{url}#/play"))
            .await
            .map_err(|e| e.to_string())?;
        wait_css(&c, "#start", 20).await?;
        moves_off(&c).await?;
        let ai = c
            .find(Locator::Css("#ai"))
            .await
            .map_err(|e| e.to_string())?;
        ai.clear().await.map_err(|e| e.to_string())?;
        ai.send_keys("random").await.map_err(|e| e.to_string())?;
        c.find(Locator::Css("#seed"))
            .await
            .map_err(|e| e.to_string())?
            .send_keys("11")
            .await
            .map_err(|e| e.to_string())?;
        c.find(Locator::Css("#start"))
            .await
            .map_err(|e| e.to_string())?
            .click()
            .await
            .map_err(|e| e.to_string())?;
        wait_css(&c, "svg.board", 30).await?;
        // The board is drawn: every space of board.ron, the informants named.
        let spaces = c
            .find_all(Locator::Css("svg.board g.space"))
            .await
            .map_err(|e| e.to_string())?;
        if spaces.len() < 30 {
            return Err(format!("only {} board spaces drawn", spaces.len()));
        }
        let (outcome, clicks) = click_to_the_end(&c).await?;
        if !outcome.contains("Game over") || !outcome.contains("wins") {
            return Err(format!("the outcome reads {outcome:?}"));
        }
        eprintln!("game over after {clicks} clicks: {outcome}");
        Ok(())
    });
}

#[test]
fn hotseat_hands_the_screen_over_before_showing_the_other_hand() {
    run("hotseat_handover", &[], |c, url| async move {
        c.goto(&format!("{url}#/play"))
            .await
            .map_err(|e| e.to_string())?;
        wait_css(&c, "#start", 20).await?;
        moves_off(&c).await?;
        c.find(Locator::Css("#mode option[value='hotseat']"))
            .await
            .map_err(|e| e.to_string())?
            .click()
            .await
            .map_err(|e| e.to_string())?;
        c.find(Locator::Css("#start"))
            .await
            .map_err(|e| e.to_string())?
            .click()
            .await
            .map_err(|e| e.to_string())?;
        // Click until the handover screen comes; it shows no hand and no board.
        for _ in 0..200 {
            if let Ok(h) = c.find(Locator::Css("#handover")).await {
                let text = h.text().await.map_err(|e| e.to_string())?;
                // Nor the card the pointer rests on, shown whole beside the
                // hand on hover: its face is gone, the pointer never left it.
                if c.find(Locator::Css("article.card, .card-zoom"))
                    .await
                    .is_ok()
                {
                    return Err("the handover screen shows cards".into());
                }
                for table in ["svg.board", "svg.track", ".hand", ".in-play"] {
                    if c.find(Locator::Css(table)).await.is_ok() {
                        return Err(format!("the handover screen shows {table}"));
                    }
                }
                if !text.contains("Pass the screen to") {
                    return Err(format!("the handover screen reads {text:?}"));
                }
                let seat_before = c
                    .execute(
                        "return JSON.parse(sessionStorage.getItem('watergate.play')).current",
                        vec![],
                    )
                    .await
                    .map_err(|e| e.to_string())?;
                c.find(Locator::Css("#handover-ready"))
                    .await
                    .map_err(|e| e.to_string())?
                    .click()
                    .await
                    .map_err(|e| e.to_string())?;
                let play = wait_css(&c, "div.play", 20).await?;
                let seat_after = play.attr("data-seat").await.map_err(|e| e.to_string())?;
                if Some(seat_before.as_str().unwrap_or("").to_string()) == seat_after {
                    return Err(format!("the seat did not change: {seat_after:?}"));
                }
                return Ok(());
            }
            let before = step(&c).await;
            let option = wait_css(&c, "button.option", 30).await?;
            // The pointer rests on a card of the hand while the choice is
            // made from the keyboard (here by script): its zoom shows.
            if let Ok(card) = c.find(Locator::Css(".hand article.card")).await {
                let rest = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
                    element: card,
                    duration: None,
                    x: 0.0,
                    y: 0.0,
                });
                c.perform_actions(rest).await.map_err(|e| e.to_string())?;
            }
            c.execute(
                "arguments[0].click()",
                vec![serde_json::to_value(&option).map_err(|e| e.to_string())?],
            )
            .await
            .map_err(|e| e.to_string())?;
            for _ in 0..500 {
                if c.find(Locator::Css("#handover")).await.is_ok() || step(&c).await != before {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        Err("no handover in 200 choices".into())
    });
}

#[test]
fn the_notation_box_takes_a_choice_and_shows_why_a_bad_one_is_refused() {
    run("notation_box", &[], |c, url| async move {
        let e = |e: fantoccini::error::CmdError| e.to_string();
        c.goto(&format!("{url}#/play")).await.map_err(e)?;
        wait_css(&c, "#start", 20).await?;
        moves_off(&c).await?;
        let ai = c.find(Locator::Css("#ai")).await.map_err(e)?;
        ai.clear().await.map_err(e)?;
        ai.send_keys("ismcts:nonsense").await.map_err(e)?;
        c.find(Locator::Css("#start"))
            .await
            .map_err(e)?
            .click()
            .await
            .map_err(e)?;
        // A bad agent is refused with the engine's words, on the page.
        let err = wait_css(&c, ".start .error", 10).await?;
        for _ in 0..100 {
            if !err.text().await.map_err(e)?.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let said = err.text().await.map_err(e)?;
        if !said.contains("expected a number of iterations") {
            return Err(format!("a bad agent: the page says {said:?}"));
        }
        ai.clear().await.map_err(e)?;
        ai.send_keys("ismcts:20").await.map_err(e)?;
        c.find(Locator::Css("#start"))
            .await
            .map_err(e)?
            .click()
            .await
            .map_err(e)?;
        let code = wait_css(&c, "ol.options li code", 30).await?;
        let notation = code.text().await.map_err(e)?;
        // Options are numbered from 1, as at the terminal.
        let start = c
            .find(Locator::Css("ol.options"))
            .await
            .map_err(e)?
            .attr("start")
            .await
            .map_err(e)?;
        if start.as_deref() != Some("1") {
            return Err(format!("the options are numbered from {start:?}"));
        }
        let before = step(&c).await;
        let input = c.find(Locator::Css("#notation")).await.map_err(e)?;
        input.send_keys("fly to the moon\n").await.map_err(e)?;
        let msg = wait_css(&c, "#message.error", 10).await?;
        let text = msg.text().await.map_err(e)?;
        if text.is_empty() || step(&c).await != before {
            return Err(format!(
                "a bad choice: message {text:?}, step {:?} → {:?}",
                before,
                step(&c).await
            ));
        }
        let input = c.find(Locator::Css("#notation")).await.map_err(e)?;
        input.clear().await.map_err(e)?;
        input.send_keys(&format!("{notation}\n")).await.map_err(e)?;
        for _ in 0..500 {
            if step(&c).await != before {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Err(format!("typing `{notation}` did not move the game on"))
    });
}

/// A keyboard player keeps their place: after a choice made with Enter on
/// an option, focus is on the next decision's first option, not back at
/// the top of the page behind the menu; after a typed choice, in the
/// notation box again.
#[test]
fn after_a_choice_from_the_keyboard_focus_stays_at_the_decision() {
    run("keyboard_focus", &[], |c, url| async move {
        let e = |e: fantoccini::error::CmdError| e.to_string();
        crate::click_play::start(&c, &url, "editor", 4).await?;
        let focus = "const a = document.activeElement; \
                     return a ? (a.id || a.className) : null;";
        for (n, typed) in [(0, false), (1, false), (2, true)] {
            let option = wait_css(&c, "#decision button.option", 30).await?;
            let before = step(&c).await;
            if typed {
                let box_ = c.find(Locator::Css("#notation")).await.map_err(e)?;
                // The first option in notation, as the list shows it beside it.
                let said = c
                    .execute(
                        "return arguments[0].parentElement.querySelector('code').textContent",
                        vec![serde_json::to_value(&option).map_err(|x| x.to_string())?],
                    )
                    .await
                    .map_err(e)?;
                box_.click().await.map_err(e)?;
                box_.send_keys(&format!("{}\u{E007}", said.as_str().unwrap_or_default()))
                    .await
                    .map_err(e)?;
            } else {
                c.execute(
                    "arguments[0].focus()",
                    vec![serde_json::to_value(&option).map_err(|x| x.to_string())?],
                )
                .await
                .map_err(e)?;
                c.active_element()
                    .await
                    .map_err(e)?
                    .send_keys("\u{E007}")
                    .await
                    .map_err(e)?;
            }
            moved_on(&c, &before, n + 1, "#handover-ready").await?;
            if c.find(Locator::Css("#outcome")).await.is_ok() {
                return Ok(());
            }
            wait_css(&c, "#decision button.option", 30).await?;
            let now = c.execute(focus, vec![]).await.map_err(e)?;
            let want = if typed { "notation" } else { "option" };
            if now != serde_json::json!(want) {
                return Err(format!("choice {n}: focus is on {now}, not the {want}"));
            }
        }
        Ok(())
    });
}

/// Starts a game as the Editor against the random agent (seed 11) and
/// waits for her first options.
async fn start_a_game(c: &Client, url: &str) -> Result<(), String> {
    c.goto(&format!("{url}#/play"))
        .await
        .map_err(|e| e.to_string())?;
    wait_css(c, "#start", 20).await?;
    moves_off(c).await?;
    c.execute(
        "sessionStorage.removeItem('watergate.play'); \
         document.getElementById('ai').value = 'random'; \
         document.getElementById('seed').value = '11';",
        vec![],
    )
    .await
    .map_err(|e| e.to_string())?;
    c.find(Locator::Css("#start"))
        .await
        .map_err(|e| e.to_string())?
        .click()
        .await
        .map_err(|e| e.to_string())?;
    wait_css(c, "button.option", 30).await?;
    Ok(())
}

/// Clicks the first option the page shows.
async fn click_an_option(c: &Client) -> Result<(), String> {
    c.find(Locator::Css("button.option"))
        .await
        .map_err(|e| e.to_string())?
        .click()
        .await
        .map_err(|e| e.to_string())
}

/// Problems left by Play: a game the server no longer had (it was
/// restarted, or forgot the game) showed a bare "no game …" in the message
/// line, the page offering nothing to do but the dead game's buttons; and a
/// server stopped mid-game gave the browser's "Failed to fetch". A game
/// gone says so, on a click as on reopening the page, and offers a New
/// game button that starts one; a server that does not answer is said to
/// be not answering, and the page tells how to go on.
#[test]
fn a_game_gone_and_a_server_stopped_are_said_plainly() {
    common::browser::run_studio("play_gone", &[], &[], |c, studio| async move {
        let url = studio.url.clone();
        // The server forgets the game (as a restart would), and the page
        // still shows it: a click says the game is gone.
        let forget = "const s = JSON.parse(sessionStorage.getItem('watergate.play')); \
             return fetch(`/api/games/${s.game}`, { method: 'DELETE', headers: { 'X-Seat-Token': s.seats[s.current] } }).then((r) => r.status);";
        for reopen in [false, true] {
            start_a_game(&c, &url).await?;
            let status = c.execute(forget, vec![]).await.map_err(|e| e.to_string())?;
            if !status.as_u64().is_some_and(|s| (200..300).contains(&s)) {
                return Err(format!("the game was not forgotten: {status}"));
            }
            if reopen {
                // The page opened again (a reload): the game it kept is gone.
                c.refresh().await.map_err(|e| e.to_string())?;
            } else {
                click_an_option(&c).await?;
            }
            let gone = wait_css(&c, "#game-gone", 20)
                .await?
                .text()
                .await
                .map_err(|e| e.to_string())?;
            if !gone.contains("This game is gone") || !gone.contains("restarted") {
                return Err(format!("the page says {gone:?}"));
            }
            c.find(Locator::Css("#gone-new-game"))
                .await
                .map_err(|e| e.to_string())?
                .click()
                .await
                .map_err(|e| e.to_string())?;
            wait_css(&c, "#start", 20).await?;
        }
        // The server stops mid-game: a click says it is not answering.
        start_a_game(&c, &url).await?;
        studio.stop();
        click_an_option(&c).await?;
        let said = common::browser::shown_text(&c, "#message", "the message", 20).await?;
        if !said.contains("The server is not answering") || said.contains("fetch") {
            return Err(format!("with the server stopped, a click says {said:?}"));
        }
        // Another page of the studio says the same, not "Failed to fetch".
        c.goto(&format!("{url}#/replay"))
            .await
            .map_err(|e| e.to_string())?;
        let said = common::browser::shown_text(
            &c,
            "#log-list .error, #page-error",
            "the replay page's message",
            20,
        )
        .await?;
        if !said.contains("The server is not answering") {
            return Err(format!("the replay page says {said:?}"));
        }
        Ok(())
    });
}

/// Problems left by Play: a saved position could not be reopened in the
/// studio at all (the Puzzles page sent it to Play, which had no way to
/// open one), and messages showed the server's `backticks` as they are.
/// The start screen plays on from a saved position; a file this studio
/// cannot open (it plays on another data folder) is refused with what to
/// do instead, its commands drawn as code, no backtick shown.
#[test]
fn play_opens_a_saved_position_and_a_refusal_draws_its_commands_as_code() {
    let dir = common::temp::TempFolder::new("wg-play-position");
    let r = watergate::data::shipped();
    let s = watergate::game::state::State::new(&r, 4);
    let mut def = watergate::formats::scenario::save::scenario_of(&r, &s, "saved game", "");
    let good = dir.join("saved.ron");
    std::fs::write(&good, watergate::formats::scenario::save::to_text(&def)).unwrap();
    def.data = Some(dir.join("elsewhere").display().to_string());
    let other = dir.join("other-folder.ron");
    std::fs::write(&other, watergate::formats::scenario::save::to_text(&def)).unwrap();
    let (good, other) = (good.display().to_string(), other.display().to_string());
    run("play_position", &[], move |c, url| async move {
        let pick = |c: Client, url: String, file: String| async move {
            c.goto(&format!("{url}#/play"))
                .await
                .map_err(|e| e.to_string())?;
            wait_css(&c, "#start", 20).await?;
            moves_off(&c).await?;
            c.execute(
                "sessionStorage.removeItem('watergate.play'); document.getElementById('ai').value = 'random';",
                vec![],
            )
            .await
            .map_err(|e| e.to_string())?;
            c.find(Locator::Css("#position-file"))
                .await
                .map_err(|e| e.to_string())?
                .send_keys(&file)
                .await
                .map_err(|e| e.to_string())
        };
        pick(c.clone(), url.clone(), other).await?;
        let said = common::browser::until("the refusal", 20, || async {
            let v = c
                .execute(
                    "const p = document.getElementById('start-error'); \
                     return p && p.textContent ? { text: p.textContent, code: [...p.querySelectorAll('code')].map((x) => x.textContent) } : null;",
                    vec![],
                )
                .await
                .ok()?;
            (!v.is_null()).then_some(v)
        })
        .await?;
        let text = said["text"].as_str().unwrap_or_default();
        let codes: Vec<&str> = said["code"]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
            .unwrap_or_default();
        if text.contains('`')
            || !codes.contains(&"watergate serve --data FOLDER")
            || !codes.contains(&"watergate play --scenario FILE")
        {
            return Err(format!(
                "the refusal reads {text:?}, drawn as code: {codes:?}"
            ));
        }
        // The file of this studio's game opens: the Editor's table, at its
        // position (round 1), the seed not shown (a position has none).
        pick(c.clone(), url.clone(), good).await?;
        wait_css(&c, "button.option", 30).await?;
        let bar = c
            .find(Locator::Css(".play.table .bar"))
            .await
            .map_err(|e| e.to_string())?
            .text()
            .await
            .map_err(|e| e.to_string())?;
        if !bar.contains("Round 1") || !bar.contains("Opponent: random") {
            return Err(format!("the table opened from the file: {bar:?}"));
        }
        Ok(())
    });
}
