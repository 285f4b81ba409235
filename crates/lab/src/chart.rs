//! Charts of simulation results, drawn with plotters into SVG: win rates
//! with their 95% intervals, and the distribution of game length.

use crate::sim::SimResult;
use plotters::prelude::*;
use std::path::Path;

fn err<E: std::fmt::Display>(e: E) -> String {
    format!("cannot draw the chart: {e}")
}

/// The chart's size in pixels.
const SIZE: (u32, u32) = (960, 440);

/// Draws `result` (and the game it is compared against, if any) into an
/// SVG file, each run under its label.
pub fn draw(path: &Path, result: &SimResult, label: &str, against: &str) -> Result<(), String> {
    render(
        SVGBackend::new(path, SIZE).into_drawing_area(),
        result,
        label,
        against,
    )
}

/// The same chart as SVG text (the studio's lab page shows it inline).
pub fn svg(result: &SimResult, label: &str, against: &str) -> Result<String, String> {
    let mut text = String::new();
    render(
        SVGBackend::with_string(&mut text, SIZE).into_drawing_area(),
        result,
        label,
        against,
    )?;
    Ok(text)
}

/// The runs' colours in the game-length chart: the Okabe–Ito palette's
/// blue, orange, sky blue and vermillion, told apart with every common
/// colour blindness (plotters' default palette starts red, green).
const RUN_COLOURS: [RGBColor; 4] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
];

fn render(
    root: DrawingArea<SVGBackend, plotters::coord::Shift>,
    result: &SimResult,
    label: &str,
    against: &str,
) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let (left, right) = root.split_horizontally(400);

    // Win rates with intervals: one bar per (run, side).
    let mut runs = vec![(label.to_string(), &result.tally)];
    if let Some(b) = &result.against {
        runs.push((against.to_string(), b));
    }
    let mut bars = Vec::new();
    for (name, t) in &runs {
        for (side, wins) in [("Editor", t.editor_wins), ("Nixon", t.nixon_wins)] {
            bars.push((
                format!("{side} · {name}"),
                crate::stats::wilson(wins, t.games, crate::stats::Z95),
            ));
        }
    }
    let mut chart = ChartBuilder::on(&left)
        .caption("Win rate (95% Wilson interval)", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(60)
        .y_label_area_size(45)
        .build_cartesian_2d(0f64..bars.len() as f64, 0f64..1f64)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc("share of games won")
        .draw()
        .map_err(err)?;
    // Labels inside the plot: the side above each bar, the run over each pair.
    for (k, (name, _)) in runs.iter().enumerate() {
        chart
            .draw_series(std::iter::once(Text::new(
                name.clone(),
                (2.0 * k as f64 + 0.1, 0.97),
                ("sans-serif", 13),
            )))
            .map_err(err)?;
    }
    for (i, (name, iv)) in bars.iter().enumerate() {
        let colour = if name.starts_with("Editor") {
            BLUE
        } else {
            RED
        };
        let x0 = i as f64 + 0.15;
        let x1 = i as f64 + 0.85;
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(x0, 0.0), (x1, iv.estimate)],
                colour.mix(0.5).filled(),
            )))
            .map_err(err)?;
        let xm = i as f64 + 0.5;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(xm, iv.low), (xm, iv.high)],
                BLACK.stroke_width(2),
            )))
            .map_err(err)?;
        for y in [iv.low, iv.high] {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(xm - 0.12, y), (xm + 0.12, y)],
                    BLACK.stroke_width(2),
                )))
                .map_err(err)?;
        }
        let side = name.split(' ').next().unwrap_or("");
        let pct = format!("{side} {:.1}%", 100.0 * iv.estimate);
        chart
            .draw_series(std::iter::once(Text::new(
                pct,
                (x0, (iv.high + 0.05).min(0.93)),
                ("sans-serif", 12),
            )))
            .map_err(err)?;
    }

    // Game length histogram.
    let max_round = runs
        .iter()
        .flat_map(|(_, t)| t.rounds_histogram.keys().copied())
        .max()
        .unwrap_or(1) as f64
        + 1.0;
    let max_share = runs
        .iter()
        .flat_map(|(_, t)| {
            t.rounds_histogram
                .values()
                .map(move |n| *n as f64 / t.games.max(1) as f64)
        })
        .fold(0.0, f64::max)
        .max(0.05);
    let mut hist = ChartBuilder::on(&right)
        .caption("Game length", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..max_round, 0f64..max_share * 1.1)
        .map_err(err)?;
    hist.configure_mesh()
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{:.0}%", 100.0 * y))
        .x_desc("rounds")
        .y_desc("share of games")
        .draw()
        .map_err(err)?;
    let width = 0.8 / runs.len() as f64;
    for (k, (name, t)) in runs.iter().enumerate() {
        let colour = RUN_COLOURS[k % RUN_COLOURS.len()];
        let style = colour.mix(0.7).filled();
        hist.draw_series(t.rounds_histogram.iter().map(|(round, n)| {
            let x0 = *round as f64 - 0.4 + k as f64 * width;
            Rectangle::new(
                [(x0, 0.0), (x0 + width, *n as f64 / t.games.max(1) as f64)],
                style,
            )
        }))
        .map_err(err)?
        .label(name.clone())
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
    }
    hist.configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::agent::AgentSpec;
    use crate::sim::{simulate_compare, SimConfig};

    #[test]
    fn the_game_length_chart_tells_its_runs_apart_without_red_against_green() {
        let r = crate::data::shipped();
        let cfg = SimConfig {
            games: 20,
            seed: 1,
            first_game: 0,
            editor: AgentSpec::Random,
            nixon: AgentSpec::Random,
            threads: 1,
        };
        let res = simulate_compare(&r, Some(&r), &cfg, &|_| {}).unwrap();
        let text = svg(&res, "base", "again").unwrap().to_ascii_uppercase();
        // Plotters' default palette: red, then green.
        for bad in ["#E6194B", "#3CB44B"] {
            assert!(!text.contains(bad), "{bad} in the chart");
        }
        for good in ["#0072B2", "#E69F00"] {
            assert!(text.contains(good), "{good} missing from the chart");
        }
    }
}
