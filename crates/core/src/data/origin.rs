//! Where the game a command plays comes from: a data root (`--data DIR`,
//! else the copy shipped in the binary) and a house-rule variant applied to
//! it (`--variant FILE`). Every command that loads a game goes through
//! [`GameSource`], so none can forget a flag; scenarios add their own
//! `data:`/`variant:` on top of it (`Scenario::rules`).

use super::DataSet;
use crate::data::variant::Variant;
use crate::diag::Diagnostics;
use crate::game::rules::Rules;
use std::path::PathBuf;

/// A data root and a variant, both optional: the shipped game by default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSource {
    /// The data root (`--data DIR`); `None`: the data shipped in the binary.
    pub data: Option<PathBuf>,
    /// The variant file (`--variant FILE`); `None`: the game as it is.
    pub variant: Option<PathBuf>,
}

impl GameSource {
    /// The shipped game, as it is.
    pub fn shipped() -> GameSource {
        GameSource::default()
    }

    /// The base data set: the data root, or the shipped copy. Built
    /// without the `shipped-data` feature, the core has no shipped copy:
    /// asking for it is one problem that says so, not the dozen a game
    /// with no files at all would have.
    pub fn base(&self) -> Result<DataSet, Diagnostics> {
        match &self.data {
            Some(d) => DataSet::from_dir(d),
            None if cfg!(feature = "shipped-data") => Ok(DataSet::embedded()),
            None => Err(Diagnostics(vec![crate::diag::Diagnostic::unread(
                "the shipped game",
                "this build of watergate-core has no shipped game (its `shipped-data` feature is off): name a data folder (`GameSource { data: Some(dir), .. }`, or `DataSet::from_dir`), or enable the feature",
            )])),
        }
    }

    /// The variant file, parsed, if one is named.
    pub fn variant(&self) -> Result<Option<Variant>, Diagnostics> {
        self.variant.as_deref().map(Variant::from_file).transpose()
    }

    /// The files the game is made of (the base with the variant applied)
    /// and its rules: a game that does not load is every problem found.
    pub fn load(&self) -> Result<(DataSet, Rules), Diagnostics> {
        let ds = self.files()?;
        let rules = super::load(&ds)?;
        Ok((ds, rules))
    }

    /// The files the game is made of (the base with the variant applied),
    /// not yet loaded: their fingerprint tells a game loaded already from
    /// the same bytes, at a fraction of the cost of compiling it again.
    pub fn files(&self) -> Result<DataSet, Diagnostics> {
        let base = self.base()?;
        match self.variant()? {
            None => Ok(base),
            Some(v) => v.apply(&base),
        }
    }

    /// The files the game is made of, checked: they load.
    pub fn dataset(&self) -> Result<DataSet, Diagnostics> {
        self.load().map(|(ds, _)| ds)
    }

    /// The game's rules.
    pub fn rules(&self) -> Result<Rules, Diagnostics> {
        self.load().map(|(_, r)| r)
    }

    /// The game in words, for reports: "the shipped game", "`mydata`",
    /// "`mydata` with variant `v.ron`". Never calls an edited copy the base game.
    pub fn label(&self) -> String {
        self.label_quoting("`")
    }

    /// `label` with the paths as they are, for JSON, where the Markdown
    /// backticks would be part of the text: "mydata with variant v.ron".
    pub fn plain_label(&self) -> String {
        self.label_quoting("")
    }

    fn label_quoting(&self, q: &str) -> String {
        let base = match &self.data {
            Some(d) => format!("{q}{}{q}", d.display()),
            None => "the shipped game".to_string(),
        };
        match &self.variant {
            Some(v) => format!("{base} with variant {q}{}{q}", v.display()),
            None => base,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without the shipped data (`cargo test -p watergate-core`, no
    /// features), the shipped game is one problem naming the feature; with
    /// it, the shipped game loads.
    #[test]
    fn the_shipped_game_loads_or_says_which_feature_it_needs() {
        let got = GameSource::shipped().rules();
        #[cfg(feature = "shipped-data")]
        assert!(got.is_ok_and(|r| !r.cards.is_empty()));
        #[cfg(not(feature = "shipped-data"))]
        {
            let d = got.expect_err("no shipped game without the feature");
            assert_eq!(d.len(), 1, "{d}");
            assert!(
                d.to_string().contains("`shipped-data` feature is off"),
                "{d}"
            );
        }
    }
}
