//! `GET /api/docs/{rules,cards}`: docs/rules.md and docs/cards.md as HTML
//! for the How to play page (`assets/studio/howto.js`), with a table of
//! contents. Both files are embedded in the binary, so the page works
//! wherever the binary runs.
//!
//! Markdown is rendered with pulldown-cmark (CommonMark). The docs' own raw
//! HTML is their rule and card anchors (`<a id="r5-6"></a>`); those pass
//! through and every other piece of raw HTML is shown as text, so nothing
//! in a doc can inject markup or script. Links between the docs become
//! studio routes (`rules.md#r5-6` → `#/howto/r5-6`); a link to a doc the
//! page does not show keeps only its text, and only http(s) links leave.

use super::error::ApiError;
use super::AppState;
use axum::extract::Path;
use axum::routing::get;
use axum::{Json, Router};
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use serde::Serialize;

/// The docs the page shows: route name, title, text.
const DOCS: [(&str, &str, &str); 2] = [
    (
        "rules",
        "The rules",
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md")),
    ),
    (
        "cards",
        "The cards",
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cards.md")),
    ),
];

pub fn routes() -> Router<AppState> {
    Router::new().route("/docs/{name}", get(doc))
}

async fn doc(Path(name): Path<String>) -> Result<Json<Doc>, ApiError> {
    render(&name).map(Json).ok_or_else(|| {
        ApiError::not_found(format!(
            "no document `{name}`: the studio shows `rules` and `cards`"
        ))
    })
}

/// One doc rendered: its HTML and its headings.
#[derive(Serialize, Debug)]
pub struct Doc {
    pub name: &'static str,
    pub title: &'static str,
    pub html: String,
    pub toc: Vec<TocEntry>,
}

/// A heading of a doc: level 1–6, the id it carries, its text.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct TocEntry {
    pub level: u8,
    pub id: String,
    pub text: String,
}

/// The doc `name` (`rules`, `cards`), or `None`.
pub fn render(name: &str) -> Option<Doc> {
    let (name, title, text) = DOCS.into_iter().find(|(n, _, _)| *n == name)?;
    let (html, toc) = to_html(name, text);
    Some(Doc {
        name,
        title,
        html,
        toc,
    })
}

/// Markdown → restricted HTML, and the table of contents. Each heading gets
/// the id `<doc>-<its words>` (`rules-r5-playing-a-card`).
fn to_html(doc: &str, text: &str) -> (String, Vec<TocEntry>) {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let events: Vec<Event> = Parser::new_ext(text, options).collect();
    let mut out: Vec<Event> = Vec::with_capacity(events.len());
    let mut toc = Vec::new();
    // For each open link: whether it was kept (its end is then kept too).
    let mut links: Vec<bool> = Vec::new();
    let mut i = 0;
    while i < events.len() {
        let ev = events[i].clone();
        i += 1;
        match ev {
            Event::Html(h) | Event::InlineHtml(h) => {
                if anchors_only(&h) {
                    out.push(Event::InlineHtml(h));
                } else {
                    out.push(Event::Text(h));
                }
            }
            Event::Start(Tag::Heading {
                level,
                classes,
                attrs,
                ..
            }) => {
                let words = heading_text(&events[i..]);
                let mut id = format!("{doc}-{}", slug(&words));
                // Two headings of the same words (each side's "Informant
                // events") get `-2`, `-3`… after the first.
                let base = id.clone();
                let mut n = 1;
                while toc.iter().any(|t: &TocEntry| t.id == id) {
                    n += 1;
                    id = format!("{base}-{n}");
                }
                toc.push(TocEntry {
                    level: level_number(level),
                    id: id.clone(),
                    text: words,
                });
                out.push(Event::Start(Tag::Heading {
                    level,
                    id: Some(CowStr::from(id)),
                    classes,
                    attrs,
                }));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => match route(&dest_url) {
                Some(dest) => {
                    links.push(true);
                    out.push(Event::Start(Tag::Link {
                        link_type,
                        dest_url: CowStr::from(dest),
                        title,
                        id,
                    }));
                }
                None => links.push(false),
            },
            Event::End(TagEnd::Link) => {
                if links.pop().unwrap_or(false) {
                    out.push(Event::End(TagEnd::Link));
                }
            }
            // An image shows its description as text: the docs ship none,
            // and the page loads nothing from elsewhere.
            Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => {}
            other => out.push(other),
        }
    }
    let mut html = String::with_capacity(text.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, out.into_iter());
    (html, toc)
}

/// Whether a piece of raw HTML is only anchors: `<a id="r5-6">` and `</a>`
/// (ids of lower-case letters, digits and dashes), with white space between.
fn anchors_only(html: &str) -> bool {
    let mut rest = html.trim_start();
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("</a>") {
            rest = r;
        } else if let Some(r) = rest.strip_prefix("<a id=\"") {
            let Some((id, r)) = r.split_once("\">") else {
                return false;
            };
            let ok = !id.is_empty()
                && id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if !ok {
                return false;
            }
            rest = r;
        } else {
            return false;
        }
        rest = rest.trim_start();
    }
    true
}

/// Where a link of a doc goes on the page: another place in the docs it
/// shows becomes a `#/howto/…` route, an http(s) address stays; anything
/// else (a doc the page does not show, a script URL) is `None`.
fn route(dest: &str) -> Option<String> {
    if dest.starts_with("https://") || dest.starts_with("http://") {
        return Some(dest.to_string());
    }
    let (file, fragment) = match dest.split_once('#') {
        Some((f, frag)) => (f, Some(frag)),
        None => (dest, None),
    };
    let fragment = fragment.filter(|f| !f.is_empty());
    let file = file.strip_prefix("./").unwrap_or(file);
    let doc = match file {
        "" => None,
        "rules.md" | "docs/rules.md" => Some("rules"),
        "cards.md" | "docs/cards.md" => Some("cards"),
        _ => return None,
    };
    let target = match (fragment, doc) {
        (Some(f), _) => f,
        (None, Some(d)) => d,
        (None, None) => return None,
    };
    let ok = target
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    ok.then(|| format!("#/howto/{target}"))
}

/// The plain text of a heading whose events start at `events[0]`.
fn heading_text(events: &[Event]) -> String {
    let mut s = String::new();
    for ev in events {
        match ev {
            Event::End(TagEnd::Heading(_)) => break,
            Event::Text(t) | Event::Code(t) => s.push_str(t),
            _ => {}
        }
    }
    s.trim().to_string()
}

/// Lower-case words joined by dashes: `R5 Playing a card` → `r5-playing-a-card`.
fn slug(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    s.trim_end_matches('-').to_string()
}

fn level_number(l: HeadingLevel) -> u8 {
    match l {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_keep_their_anchors_and_links_become_routes() {
        let d = render("rules").unwrap();
        assert!(d.html.contains(r#"<a id="r5-6"></a>"#), "no R5.6 anchor");
        assert!(d.html.contains(r#"<a id="r5"></a>"#));
        assert!(!d.html.contains("<script"));
        // A link to a doc the page does not show keeps only its text.
        assert!(!d.html.contains(r#"href="open-questions.md"#));
        assert!(d.html.contains("it, in open-questions.md"));
        assert!(d
            .toc
            .iter()
            .any(|t| t.level == 2 && t.text.starts_with("R5")));
        let ids: Vec<&str> = d.toc.iter().map(|t| t.id.as_str()).collect();
        assert!(ids.iter().all(|i| i.starts_with("rules-")), "{ids:?}");
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "{ids:?}");
    }

    #[test]
    fn the_cards_link_their_rules_on_the_page() {
        let d = render("cards").unwrap();
        assert!(d.html.contains(r#"<a id="nixon-howard-hunt"></a>"#));
        assert!(d.html.contains(r##"href="#/howto/r5-13""##));
        assert!(render("open-questions").is_none());
        let ids: Vec<&str> = d.toc.iter().map(|t| t.id.as_str()).collect();
        assert!(ids.contains(&"cards-informant-events-7-2"), "{ids:?}");
        assert!(d
            .toc
            .iter()
            .any(|t| t.level == 4 && t.text == "Howard Hunt"));
    }

    #[test]
    fn raw_html_other_than_an_anchor_is_shown_as_text() {
        let md = "Hi <script>alert(1)</script> <a id=\"x\"></a>\n\n<img src=x onerror=alert(1)>\n\n<a id=\"ok-1\"></a>\n\n[x](javascript:alert(1)) [y](open-questions.md#q1) [z](rules.md#r1)\n";
        let (html, _) = to_html("t", md);
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(!html.contains("javascript:"), "{html}");
        assert!(html.contains(r#"<a id="x"></a>"#), "{html}");
        assert!(html.contains(r#"<a id="ok-1"></a>"#), "{html}");
        assert!(html.contains(r##"<a href="#/howto/r1">z</a>"##), "{html}");
        assert!(html.contains(" y "), "{html}");
        assert!(!anchors_only(r#"<a id="x" onclick="y">"#));
        assert!(!anchors_only(r#"<a id="X">"#));
    }
}
