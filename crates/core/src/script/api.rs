//! The functions a card script may call. Each appends effect instructions to
//! the program being built (see `program.rs`) or reads the game through a
//! read-only snapshot. The table `API` documents every function: it is what
//! `watergate script-api` prints, and a test checks that it matches what is
//! registered, so the documentation cannot drift from the engine.

use crate::game::model::{CardType, Colour, Dest, Part};
use crate::game::program::*;
use crate::game::script_view::ScriptView;
use rhai::{Array, Dynamic, Engine, EvalAltResult, FnPtr, Map, NativeCallContext};
use std::cell::RefCell;

/// Longest program a script may build.
pub const MAX_PROGRAM_LEN: usize = 512;

/// One documented script function.
pub struct ApiDoc {
    /// How a script calls it (`move_evidence(steps, options)`).
    pub signature: &'static str,
    /// What it does, in a sentence for the reference.
    pub doc: &'static str,
    /// The rules it implements (`R5.13, Q9`), as the reference links them.
    pub rule: &'static str,
    /// Reads the game: a script that calls it is run at every play instead of
    /// once at load.
    pub reads_state: bool,
}

macro_rules! doc {
    ($sig:expr, $rule:expr, $doc:expr) => {
        ApiDoc {
            signature: $sig,
            doc: $doc,
            rule: $rule,
            reads_state: false,
        }
    };
    (reads $sig:expr, $rule:expr, $doc:expr) => {
        ApiDoc {
            signature: $sig,
            doc: $doc,
            rule: $rule,
            reads_state: true,
        }
    };
}

/// Every function a card script may call, in the order `script-api` prints them.
pub const API: &[ApiDoc] = &[
    doc!("move_initiative(steps)", "R5.13", "Move the initiative token `steps` toward you (nothing if it was gained this round, R5.8)."),
    doc!("move_momentum(steps)", "R5.13", "Move the momentum token `steps` toward you."),
    doc!("move_initiative_or_momentum(steps)", "R5.13", "You choose the initiative or the momentum token and move it `steps` toward you."),
    doc!("move_evidence(steps)", "R5.13", "You choose one evidence token on the research track (face up or down) and move it `steps` toward you; a face-down token moved is turned face up."),
    doc!("move_evidence(steps, options)", "R5.13, Q9", "As above, with options: `face` (\"up\", \"down\", \"any\"), `colour` (\"blue\", \"yellow\", \"green\"), `count` (distinct tokens, one after another), `up_to` (true: you may stop early)."),
    doc!("move_every_evidence(steps)", "R5.13", "Move every evidence token on the research track `steps` toward you (tokens reaching space 5 are gained and pinned, R5.8)."),
    doc!("move_trigger_token()", "R6.5", "Reactions only: move the token the answered play was moving, from where it stands, toward you by the value of the answered card."),
    doc!("place_initiative(space)", "R5.13", "Put the initiative token on space `space` of your side (0 = the centre; the last space gains it)."),
    doc!("place_momentum(space)", "R5.13", "Put the momentum token on space `space` of your side (0 = the centre; the last space gains it)."),
    doc!("place_evidence(space)", "R5.13", "You choose one evidence token on the research track and put it on space `space` of your side."),
    doc!("place_evidence(space, options)", "R5.13", "As above, with `face` and `colour` options."),
    doc!("place_all_evidence(space)", "R5.13", "Put every evidence token on the research track on space `space` of your side (they keep their face)."),
    doc!("place_all_evidence(space, options)", "R5.13", "As above; options `face`, `colour`, `flip_up` (true: face-down tokens are turned face up)."),
    doc!("draw_evidence_to_track(space)", "R5.13, Q2", "Draw one evidence token from the bag and put it face up on space `space` of your side (nothing if the bag is empty)."),
    doc!("draw_evidence_to_track(space, face_up)", "R5.13, Q2", "As above, face up or face down."),
    doc!("draw_and_pin_evidence()", "R7.6, R9.2", "Draw one evidence token from the bag and pin it on the evidence board (face up for the Editor, face down for Nixon)."),
    doc!("return_track_evidence_to_bag(options)", "R5.13", "You choose one evidence token on the research track (`face`, `colour` options) and return it to the bag."),
    doc!("return_board_evidence_to_bag(options)", "R9.2", "You choose one evidence token on the evidence board (`face`, `colour` options) and return it to the bag."),
    doc!("pin_track_evidence(options)", "R7.6", "You choose one evidence token on the research track (`face`, `colour` options), take it off the track and pin it."),
    doc!("take_board_evidence_to_track(space, options)", "R5.13", "You choose one evidence token on the evidence board (`face`, `colour` options) and put it face up on space `space` of your side."),
    doc!("flip_board_evidence()", "R9.2", "You choose one face-down evidence token on the evidence board and turn it face up."),
    doc!("pin_picture(name)", "R5.13", "Pin the named informant's picture from the supply onto its space: face up for the Editor, face down for Nixon."),
    doc!("pin_card_picture()", "R5.13", "Pin the picture of the informant printed on this card (`card.informant`)."),
    doc!("unpin_picture(options)", "Q10", "You choose one pinned picture (`face`: \"up\", \"down\", \"any\") and return it to the potential informant supply."),
    doc!("opponent_discards_random(count)", "Q4", "Your opponent discards `count` cards at random from hand (the game's seeded generator picks)."),
    doc!("extra_turn()", "Q4", "You take another turn after this one (skipped if you have no card left)."),
    doc!("end_card_phase()", "R5.1", "Both players discard the cards left in their hands; the card phase ends."),
    doc!("play_top_card()", "Q3", "Draw the top card of your deck and play it at once, for its value or its action; your opponent may react to it."),
    doc!("forbid_opponent_actions(types)", "R5.11", "For the rest of the round your opponent may not use the action part of cards of these types (array of \"event\", \"conspirator\", \"journalist\"; reactions included)."),
    doc!("cancel_trigger(destination)", "R6.2, R6.3, R6.6", "Reactions only: cancel the play this card answers; that card goes to \"discard\" or \"removed\"."),
    doc!("choose_card(options, then)", "Q7", "You choose a card and run the function `then` with it chosen. Options: `zone` (\"hand\", \"discard\", \"removed\"), `owner` (\"me\", \"opponent\"), `types` (array), `reaction` (true/false), `usable` (true: its action could be used now), `optional` (true: you may choose none), `prompt`. With nothing to choose, or none chosen, `then` does not run and no card is chosen."),
    doc!("remove_chosen_card()", "R5.10", "Inside `choose_card`: remove the chosen card from the game."),
    doc!("perform_chosen_action()", "Q7", "Inside `choose_card`: carry out the chosen card's action part as if you had played it."),
    doc!("this_card_goes_to(destination)", "R5.10", "This card ends in \"discard\" or \"removed\" instead of where its type sends it."),
    doc!("one_of(prompt, options)", "R5.9", "You choose one option; `options` is an array of [label, function] pairs and the chosen function runs."),
    doc!(reads "round()", "R3", "The round number, from 1."),
    doc!(reads "my_hand_size()", "R4.1", "Cards left in your hand."),
    doc!(reads "opponent_hand_size()", "R4.1", "Cards left in your opponent's hand."),
    doc!(reads "my_hand_types()", "R1.7", "The types of the cards in your hand, as an array of strings."),
    doc!(reads "track_evidence_count()", "R1.3", "Evidence tokens on the research track."),
    doc!(reads "initiative_on_track()", "R5.8", "Whether the initiative token is still on the research track."),
    doc!(reads "momentum_on_track()", "R5.8", "Whether the momentum token is still on the research track."),
    doc!(reads "momentum_position()", "R1.3", "The momentum token's space from your point of view (positive: your side), or () when it is not on the track."),
    doc!(reads "my_momentum()", "R7.3", "Momentum tokens on your momentum card."),
    doc!(reads "picture_in_supply(name)", "R2.4", "Whether that informant's picture is in the potential informant supply."),
    doc!(reads "turns_played_this_round()", "R6.1, Q5", "Turns you have taken this round: a reaction counts (R6.1), a card played within a turn (`play_top_card`) does not."),
];

/// What the functions above append to, for one script run.
#[derive(Default)]
pub(crate) struct Builder {
    pub program: Program,
    pub reads_state: bool,
    pub view: Option<ScriptView>,
    pub picture_names: std::sync::Arc<[String]>,
    pub card_has_informant: bool,
    /// Whether the card is a reaction card: only its script answers a play.
    pub card_is_reaction: bool,
    /// Whether the script has called `choose_card`: before that, no card
    /// can be chosen (`remove_chosen_card`, `perform_chosen_action`).
    pub chose: bool,
    /// The last space of a side of the track (`LAST_SPACE`): the furthest a
    /// token can be put.
    pub last_space: i64,
    /// The calls of this run whose choice lists what the rules may hide
    /// (`super::reveals`), at their place in the script: the host keeps
    /// them for `watergate check` (`RhaiHost::revealing_calls`).
    pub revealing: Vec<crate::game::host::RevealingCall>,
}

thread_local! {
    static BUILDERS: RefCell<Vec<Builder>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with a fresh builder on this thread and returns what it built.
pub(crate) fn with_builder<R>(b: Builder, f: impl FnOnce() -> R) -> (R, Builder) {
    BUILDERS.with(|s| s.borrow_mut().push(b));
    let r = f();
    let b = BUILDERS.with(|s| s.borrow_mut().pop()).unwrap_or_default();
    (r, b)
}

type Res<T> = Result<T, Box<EvalAltResult>>;

fn err<T>(msg: impl Into<String>) -> Res<T> {
    Err(msg.into().into())
}

/// Notes a call whose options make its choice list what the rules may
/// hide (`super::reveals`); the options may have been built at run time.
fn note_reveals(ctx: &NativeCallContext, function: &str, opts: &Map) -> Res<()> {
    let Some(reveals) = super::reveals(function, opts) else {
        return Ok(());
    };
    let pos = ctx.call_position();
    build(|b| {
        b.revealing.push(crate::game::host::RevealingCall {
            line: pos.line().unwrap_or(1),
            col: pos.position().unwrap_or(1),
            function: function.to_string(),
            reveals,
        });
        Ok(())
    })
}

fn build<R>(f: impl FnOnce(&mut Builder) -> Res<R>) -> Res<R> {
    BUILDERS.with(|s| match s.borrow_mut().last_mut() {
        Some(b) => f(b),
        None => err("card functions can only be called while a card script runs"),
    })
}

fn emit(instr: Instr) -> Res<()> {
    build(|b| {
        if b.program.len() >= MAX_PROGRAM_LEN {
            return err(format!(
                "program too long: a script may yield at most {MAX_PROGRAM_LEN} instructions"
            ));
        }
        b.program.push(instr);
        Ok(())
    })
}

/// Refuses `name` (`cancel_trigger`, `move_trigger_token`) in a script
/// that answers no play: only a reaction card's does (R5.12, R6). Without
/// this the call was taken and did nothing, and `check` said ok.
fn answering(name: &str) -> Res<()> {
    if build(|b| Ok(b.card_is_reaction))? {
        return Ok(());
    }
    err(format!(
        "{name}: only a reaction card's script answers a play (R6), and this card is not a reaction card (no `reaction` in its card file)"
    ))
}

/// Refuses `name` (`remove_chosen_card`, `perform_chosen_action`) in a
/// script that has not called `choose_card` yet, where no card can be
/// chosen: without this the call was taken and did nothing. After a
/// `choose_card` (inside its function, as the API says, or after it) the
/// call acts on the card the last choice chose, if any, as it always did.
fn chosen(name: &str) -> Res<()> {
    if build(|b| Ok(b.chose))? {
        return Ok(());
    }
    err(format!(
        "{name}: no card is chosen here; call it inside the function given to `choose_card`"
    ))
}

fn pc() -> Res<u16> {
    build(|b| Ok(b.program.len() as u16))
}

fn read<T>(f: impl FnOnce(&ScriptView) -> T, default: T) -> Res<T> {
    build(|b| {
        b.reads_state = true;
        Ok(match &b.view {
            Some(v) => f(v),
            None => default,
        })
    })
}

fn steps_arg(n: i64, what: &str) -> Res<u8> {
    if (0..=99).contains(&n) {
        Ok(n as u8)
    } else {
        err(format!("{what} must be between 0 and 99, got {n}"))
    }
}

/// A space of a side of the track, 0 (the centre) to `LAST_SPACE`: one
/// further was clamped to the last space without a word.
fn space_arg(n: i64) -> Res<u8> {
    build(|b| {
        if (0..=b.last_space).contains(&n) {
            Ok(n as u8)
        } else {
            err(format!(
                "a track space must be between 0 and {last} (LAST_SPACE: the game's \
                 `track_length`, {last} in cards/game.ron or the variant), got {n}",
                last = b.last_space
            ))
        }
    })
}

fn opt_str(map: &Map, key: &str) -> Res<Option<String>> {
    match map.get(key) {
        None => Ok(None),
        Some(v) if v.is_string() => Ok(Some(v.clone().into_string().unwrap_or_default())),
        Some(v) => err(format!(
            "option `{key}` must be a string, got {}",
            v.type_name()
        )),
    }
}

fn opt_bool(map: &Map, key: &str) -> Res<Option<bool>> {
    match map.get(key) {
        None => Ok(None),
        Some(v) => v.as_bool().map(Some).or_else(|_| {
            err(format!(
                "option `{key}` must be true or false, got {}",
                v.type_name()
            ))
        }),
    }
}

fn opt_int(map: &Map, key: &str) -> Res<Option<i64>> {
    match map.get(key) {
        None => Ok(None),
        Some(v) => v.as_int().map(Some).or_else(|_| {
            err(format!(
                "option `{key}` must be a number, got {}",
                v.type_name()
            ))
        }),
    }
}

fn check_keys(map: &Map, allowed: &[&str]) -> Res<()> {
    for k in map.keys() {
        if !allowed.contains(&k.as_str()) {
            return err(format!(
                "unknown option `{k}`; expected one of: {}",
                allowed.join(", ")
            ));
        }
    }
    Ok(())
}

fn face_of(s: &str) -> Res<Face> {
    match s {
        "any" => Ok(Face::Any),
        "up" => Ok(Face::Up),
        "down" => Ok(Face::Down),
        _ => err(format!(
            "face must be \"up\", \"down\" or \"any\", got \"{s}\""
        )),
    }
}

fn colour_of(s: &str) -> Res<Colour> {
    Colour::parse(s).map_or_else(
        || {
            err(format!(
                "colour must be \"blue\", \"yellow\" or \"green\", got \"{s}\""
            ))
        },
        Ok,
    )
}

fn filter_of(map: &Map, extra: &[&str]) -> Res<EvidenceFilter> {
    let mut allowed = vec!["face", "colour"];
    allowed.extend_from_slice(extra);
    check_keys(map, &allowed)?;
    Ok(EvidenceFilter {
        face: match opt_str(map, "face")? {
            Some(s) => face_of(&s)?,
            None => Face::Any,
        },
        colour: match opt_str(map, "colour")? {
            Some(s) => Some(colour_of(&s)?),
            None => None,
        },
    })
}

fn dest_of(s: &str) -> Res<Dest> {
    Dest::parse(s).map_or_else(
        || {
            err(format!(
                "destination must be \"discard\" or \"removed\", got \"{s}\""
            ))
        },
        Ok,
    )
}

fn types_of(arr: &Array) -> Res<TypeMask> {
    let mut types = Vec::new();
    for v in arr {
        let s = v
            .clone()
            .into_string()
            .or_else(|_| err("card types must be strings"))?;
        types.push(CardType::parse(&s).map_or_else(
            || {
                err(format!(
                    "card type must be \"event\", \"conspirator\" or \"journalist\", got \"{s}\""
                ))
            },
            Ok,
        )?);
    }
    Ok(TypeMask::of(&types))
}

fn picture_arg(name: &str) -> Res<crate::game::model::PictureId> {
    build(|b| {
        match b
            .picture_names
            .iter()
            .position(|p| p.eq_ignore_ascii_case(name))
        {
            Some(i) => Ok(crate::game::model::PictureId(i as u8)),
            None => err(format!(
                "no informant named \"{name}\"; expected one of: {}",
                b.picture_names.join(", ")
            )),
        }
    })
}

fn evidence_sel(filter: EvidenceFilter) -> TokenSelector {
    TokenSelector {
        evidence: Some(filter),
        ..Default::default()
    }
}

fn mover(what: TokenSelector, steps: i64) -> Res<()> {
    emit(Instr::Move(MoveTokens {
        what,
        steps: Amount::Fixed(steps_arg(steps, "steps")?),
        count: 1,
        up_to: false,
    }))
}

fn move_evidence_opts(ctx: NativeCallContext, steps: i64, opts: Map) -> Res<()> {
    note_reveals(&ctx, "move_evidence", &opts)?;
    let filter = filter_of(&opts, &["count", "up_to"])?;
    let count = opt_int(&opts, "count")?.unwrap_or(1);
    if !(1..=20).contains(&count) {
        return err(format!("count must be between 1 and 20, got {count}"));
    }
    emit(Instr::Move(MoveTokens {
        what: evidence_sel(filter),
        steps: Amount::Fixed(steps_arg(steps, "steps")?),
        count: count as u8,
        up_to: opt_bool(&opts, "up_to")?.unwrap_or(false),
    }))
}

fn place_all(space: i64, opts: Map) -> Res<()> {
    let filter = filter_of(&opts, &["flip_up"])?;
    emit(Instr::PlaceAll(PlaceAll {
        what: evidence_sel(filter),
        space: space_arg(space)?,
        flip_up: opt_bool(&opts, "flip_up")?.unwrap_or(false),
    }))
}

fn call_branch(ctx: &NativeCallContext, f: &FnPtr) -> Res<()> {
    f.call_within_context::<Dynamic>(ctx, ()).map(|_| ())
}

fn choose_card(ctx: NativeCallContext, opts: Map, then: FnPtr) -> Res<()> {
    note_reveals(&ctx, "choose_card", &opts)?;
    check_keys(
        &opts,
        &[
            "zone", "owner", "types", "reaction", "usable", "optional", "prompt",
        ],
    )?;
    let zone = match opt_str(&opts, "zone")?.as_deref() {
        None | Some("hand") => Zone::Hand,
        Some("discard") => Zone::Discard,
        Some("removed") => Zone::Removed,
        Some(z) => {
            return err(format!(
                "zone must be \"hand\", \"discard\" or \"removed\", got \"{z}\""
            ))
        }
    };
    let who = match opt_str(&opts, "owner")?.as_deref() {
        None | Some("me") => Who::Me,
        Some("opponent") => Who::Opponent,
        Some(o) => return err(format!("owner must be \"me\" or \"opponent\", got \"{o}\"")),
    };
    let types = match opts.get("types") {
        None => TypeMask::default(),
        Some(v) => match v.read_lock::<Array>() {
            Some(arr) => types_of(&arr)?,
            None => return err("option `types` must be an array of card types"),
        },
    };
    let filter = CardFilter {
        types,
        reaction: opt_bool(&opts, "reaction")?,
        usable: opt_bool(&opts, "usable")?.unwrap_or(false),
    };
    let at = pc()?;
    emit(Instr::ChooseCard(ChooseCard {
        zone,
        who,
        filter,
        optional: opt_bool(&opts, "optional")?.unwrap_or(false),
        prompt: opt_str(&opts, "prompt")?.unwrap_or_else(|| "Choose a card".into()),
        skip_to: 0,
    }))?;
    build(|b| {
        b.chose = true;
        Ok(())
    })?;
    call_branch(&ctx, &then)?;
    let end = pc()?;
    build(|b| {
        if let Some(Instr::ChooseCard(ChooseCard { skip_to, .. })) = b.program.get_mut(at as usize)
        {
            *skip_to = end;
        }
        Ok(())
    })
}

fn one_of(ctx: NativeCallContext, prompt: &str, options: Array) -> Res<()> {
    if options.is_empty() {
        return err("one_of needs at least one option");
    }
    let mut parsed = Vec::new();
    // Options are counted from 1, as a designer reads the list.
    for (i, o) in (1..).zip(options.iter()) {
        let pair = match o.read_lock::<Array>() {
            Some(a) if a.len() == 2 => a.clone(),
            _ => {
                return err(format!(
                    "option {i} of one_of must be a [label, function] pair"
                ))
            }
        };
        let label = pair[0]
            .clone()
            .into_string()
            .or_else(|_| err(format!("option {i} of one_of: the label must be a string")))?;
        let f = pair[1].clone().try_cast::<FnPtr>().map_or_else(
            || {
                err(format!(
                    "option {i} of one_of: the second item must be a function"
                ))
            },
            Ok,
        )?;
        parsed.push((label, f));
    }
    let at = pc()?;
    emit(Instr::Branch(Branch {
        prompt: prompt.to_string(),
        options: Vec::new(),
    }))?;
    let mut starts = Vec::new();
    let mut jumps = Vec::new();
    for (label, f) in &parsed {
        starts.push((label.clone(), pc()?));
        call_branch(&ctx, f)?;
        jumps.push(pc()?);
        emit(Instr::Jump(Jump { to: 0 }))?;
    }
    let end = pc()?;
    build(|b| {
        if let Some(Instr::Branch(Branch { options, .. })) = b.program.get_mut(at as usize) {
            *options = starts;
        }
        for j in jumps {
            if let Some(Instr::Jump(Jump { to: t })) = b.program.get_mut(j as usize) {
                *t = end;
            }
        }
        Ok(())
    })
}

/// Registers every function of `API` on `engine`.
pub(crate) fn register(engine: &mut Engine) {
    let ev_any = EvidenceFilter::default();
    engine
        .register_fn("move_initiative", |n: i64| {
            mover(TokenSelector { initiative: true, ..Default::default() }, n)
        })
        .register_fn("move_momentum", |n: i64| {
            mover(TokenSelector { momentum: true, ..Default::default() }, n)
        })
        .register_fn("move_initiative_or_momentum", |n: i64| {
            mover(
                TokenSelector { initiative: true, momentum: true, ..Default::default() },
                n,
            )
        })
        .register_fn("move_evidence", move |n: i64| mover(evidence_sel(ev_any), n))
        .register_fn("move_evidence", move_evidence_opts)
        .register_fn("move_every_evidence", |n: i64| {
            emit(Instr::MoveAll(MoveAll { filter: EvidenceFilter::default(), steps: steps_arg(n, "steps")? }))
        })
        .register_fn("move_trigger_token", || {
            answering("move_trigger_token")?;
            emit(Instr::Move(MoveTokens {
                what: TokenSelector { trigger_token: true, ..Default::default() },
                steps: Amount::TriggerValue,
                count: 1,
                up_to: false,
            }))
        })
        .register_fn("place_initiative", |s: i64| {
            emit(Instr::Place(Place {
                what: TokenSelector { initiative: true, ..Default::default() },
                space: space_arg(s)?,
            }))
        })
        .register_fn("place_momentum", |s: i64| {
            emit(Instr::Place(Place {
                what: TokenSelector { momentum: true, ..Default::default() },
                space: space_arg(s)?,
            }))
        })
        .register_fn("place_evidence", move |s: i64| {
            emit(Instr::Place(Place { what: evidence_sel(ev_any), space: space_arg(s)? }))
        })
        .register_fn("place_evidence", |ctx: NativeCallContext, s: i64, opts: Map| {
            note_reveals(&ctx, "place_evidence", &opts)?;
            emit(Instr::Place(Place { what: evidence_sel(filter_of(&opts, &[])?), space: space_arg(s)? }))
        })
        .register_fn("place_all_evidence", |s: i64| place_all(s, Map::new()))
        .register_fn("place_all_evidence", place_all)
        .register_fn("draw_evidence_to_track", |s: i64| {
            emit(Instr::DrawToTrack(DrawToTrack { space: space_arg(s)?, face_up: true }))
        })
        .register_fn("draw_evidence_to_track", |s: i64, up: bool| {
            emit(Instr::DrawToTrack(DrawToTrack { space: space_arg(s)?, face_up: up }))
        })
        .register_fn("draw_and_pin_evidence", || emit(Instr::DrawAndPin(DrawAndPin)))
        .register_fn("return_track_evidence_to_bag", |ctx: NativeCallContext, opts: Map| {
            note_reveals(&ctx, "return_track_evidence_to_bag", &opts)?;
            emit(Instr::TrackToBag(TrackToBag { filter: filter_of(&opts, &[])? }))
        })
        .register_fn("return_board_evidence_to_bag", |opts: Map| {
            emit(Instr::BoardToBag(BoardToBag { filter: filter_of(&opts, &[])? }))
        })
        .register_fn("pin_track_evidence", |ctx: NativeCallContext, opts: Map| {
            note_reveals(&ctx, "pin_track_evidence", &opts)?;
            emit(Instr::PinFromTrack(PinFromTrack { filter: filter_of(&opts, &[])? }))
        })
        .register_fn("take_board_evidence_to_track", |s: i64, opts: Map| {
            emit(Instr::BoardToTrack(BoardToTrack { filter: filter_of(&opts, &[])?, space: space_arg(s)?, face_up: true }))
        })
        .register_fn("flip_board_evidence", || {
            emit(Instr::FlipOnBoard(FlipOnBoard { filter: EvidenceFilter { face: Face::Down, colour: None } }))
        })
        .register_fn("pin_picture", |name: &str| {
            emit(Instr::PinPicture(PinPicture { picture: PictureRef::Named(picture_arg(name)?) }))
        })
        .register_fn("pin_card_picture", || {
            if !build(|b| Ok(b.card_has_informant))? {
                return err("pin_card_picture: this card names no informant (`informant` is empty in its card file)");
            }
            emit(Instr::PinPicture(PinPicture { picture: PictureRef::ThisCard }))
        })
        .register_fn("unpin_picture", |opts: Map| {
            check_keys(&opts, &["face"])?;
            let face_up = match opt_str(&opts, "face")?.as_deref() {
                None | Some("any") => None,
                Some("up") => Some(true),
                Some("down") => Some(false),
                Some(f) => return err(format!("face must be \"up\", \"down\" or \"any\", got \"{f}\"")),
            };
            emit(Instr::UnpinPicture(UnpinPicture { face_up }))
        })
        .register_fn("opponent_discards_random", |n: i64| {
            emit(Instr::DiscardRandom(DiscardRandom { who: Who::Opponent, count: steps_arg(n, "count")? }))
        })
        .register_fn("extra_turn", || emit(Instr::ExtraTurn(ExtraTurn)))
        .register_fn("end_card_phase", || emit(Instr::EndCardPhase(EndCardPhase)))
        .register_fn("play_top_card", || emit(Instr::PlayTopCard(PlayTopCard)))
        .register_fn("forbid_opponent_actions", |types: Array| {
            emit(Instr::Forbid(Restrict { who: Who::Opponent, part: Part::Action, types: types_of(&types)? }))
        })
        .register_fn("cancel_trigger", |d: &str| {
            answering("cancel_trigger")?;
            emit(Instr::CancelTrigger(CancelTrigger { dest: dest_of(d)? }))
        })
        .register_fn("choose_card", choose_card)
        .register_fn("remove_chosen_card", || {
            chosen("remove_chosen_card")?;
            emit(Instr::RemoveChosen(RemoveChosen))
        })
        .register_fn("perform_chosen_action", || {
            chosen("perform_chosen_action")?;
            emit(Instr::PerformChosen(PerformChosen))
        })
        .register_fn("this_card_goes_to", |d: &str| emit(Instr::SetDestination(SetDestination { dest: dest_of(d)? })))
        .register_fn("one_of", one_of)
        .register_fn("round", || read(|v| v.round as i64, 1))
        .register_fn("my_hand_size", || read(|v| v.my_hand_types.len() as i64, 0))
        .register_fn("opponent_hand_size", || read(|v| v.opponent_hand_size as i64, 0))
        .register_fn("my_hand_types", || {
            read(
                |v| v.my_hand_types.iter().map(|t| Dynamic::from(t.name().to_string())).collect::<Array>(),
                Array::new(),
            )
        })
        .register_fn("track_evidence_count", || read(|v| v.track_evidence as i64, 0))
        .register_fn("initiative_on_track", || read(|v| v.initiative_on_track, true))
        .register_fn("momentum_on_track", || read(|v| v.momentum_position.is_some(), true))
        .register_fn("momentum_position", || {
            read(
                |v| v.momentum_position.map_or(Dynamic::UNIT, |p| Dynamic::from(p as i64)),
                Dynamic::from(0_i64),
            )
        })
        .register_fn("my_momentum", || read(|v| v.my_momentum as i64, 0))
        .register_fn("picture_in_supply", |name: &str| {
            let id = picture_arg(name)?;
            read(|v| v.pictures_in_supply.contains(&id), true)
        })
        .register_fn("turns_played_this_round", || read(|v| v.turns_played as i64, 0));
}

/// The name of each documented function, for checks.
pub fn api_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = API
        .iter()
        .map(|d| d.signature.split('(').next().unwrap_or(d.signature))
        .collect();
    names.dedup();
    names
}

/// "R5.13, Q9" as links into the rule documents next to the reference
/// (`rules.md#r5-13`, `open-questions.md#q9`).
fn rule_links(rules: &str) -> String {
    rules
        .split(", ")
        .map(|n| {
            let anchor = n.to_lowercase().replace('.', "-");
            match n.chars().next() {
                Some('R') => format!("[{n}](rules.md#{anchor})"),
                Some('Q') | Some('D') => format!("[{n}](open-questions.md#{anchor})"),
                _ => n.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The reference printed by `watergate script-api`.
pub fn reference() -> String {
    let mut out = String::new();
    out.push_str("# Card script API\n\n");
    out.push_str(
        "A card's action is a rhai script (`scripts/…`). Running it yields a program of effects\n\
         that the engine carries out step by step; every choice becomes a decision for a player.\n\
         Steps always go toward the acting player's side (R5.13); what cannot be done is skipped\n\
         (R5.9). Each script sees a constant `card` (a map: id, name, side, type, value, colours,\n\
         informant, steps) describing the card it belongs to, and `LAST_SPACE`, the last space\n\
         of a side of the research track (5 on the shipped track: a token placed there is\n\
         gained); a `space` argument runs from 0 (the centre) to `LAST_SPACE`, and one past it\n\
         is an error. A momentum space's script sees `card` with its momentum card's id, name and\n\
         side only, and `space`, the space's number (from 1).\n\n\
         What a choice lists, its chooser sees. A `colour` option on face-down tokens (`face`\n\
         \"down\" or \"any\") lists them by their hidden colours, and `choose_card` with\n\
         `owner: \"opponent\"` and `zone: \"hand\"` lists the opponent's hand by name. Nixon\n\
         knows his face-down tokens (R4.3) and a card may let a player look at a hand, but in\n\
         a card the rules do not mean to tell that (an Editor's card choosing a face-down token\n\
         by colour), give `face: \"up\"` with a colour. `watergate check` warns of both at the\n\
         call (an Editor's card only, for colours): options written out in the call, and options\n\
         built as the script runs, once it has run with them (at load; for a script that reads\n\
         the game, in the states `check --deep` plays).\n\n\
         A script that calls none of the functions marked *reads the game* yields the same\n\
         program every time; it is run once when the data is loaded and the program is reused.\n\
         A script that reads the game runs again at every play of its card, which costs time:\n\
         with every shipped script run that way, random games play about half as fast\n\
         (`watergate bench` prints both figures; `watergate check` counts such scripts).\n\n\
         Sandbox: no I/O, no clock, no modules, no `eval` (`print` and `debug` show nothing, and\n\
         `watergate check` warns of them); at most 50,000 operations, call depth\n\
         16, strings of 4,096 bytes (a character outside ASCII takes 2 to 4), arrays and maps of\n\
         256 items, and 512 instructions.\n\
         (rhai checks a map's size when the map is next read — its `len()`, its keys —\n\
         not at each new key written by index, so `m[key] = v` in a loop can pass 256\n\
         until then; the operation limit still bounds what such a loop can build.)\n\n\
         The rule column cites [the numbered rules](rules.md) (R1–R10) and [the readings of\n\
         what the rules leave open](open-questions.md) (Q1–Q12); what each card does is in\n\
         [cards.md](cards.md). This page is generated by `watergate script-api` from\n\
         `crates/core/src/script/api.rs`.\n\n",
    );
    out.push_str("| function | rule | what it does |\n|---|---|---|\n");
    for d in API {
        let reads = if d.reads_state {
            " *Reads the game.*"
        } else {
            ""
        };
        out.push_str(&format!(
            "| `{}` | {} | {}{} |\n",
            d.signature,
            rule_links(d.rule),
            d.doc,
            reads
        ));
    }
    out
}
