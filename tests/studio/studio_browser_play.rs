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
