//! Card scripts: a sandboxed rhai engine that implements the core's
//! [`ScriptHost`], the API scripts call ([`api`]), and the checks
//! `watergate check` runs on them (compile errors, unknown functions).
//! The effect language the scripts yield is the core's
//! (`crate::game::program`).

pub mod api;

use crate::diag::Diagnostic;
use crate::game::host::{CardContext, RevealingCall, Reveals, ScriptFailure, ScriptHost};
use crate::game::model::Colour;
use crate::game::program::Program;
use crate::game::script_view::ScriptView;
use rhai::{Dynamic, Engine, Map, Position, Scope, AST};
use std::collections::HashSet;

/// Sandbox limits, first the most operations one run of a script may take:
/// a runaway script is stopped with the card's name.
pub const MAX_OPERATIONS: u64 = 50_000;
/// The deepest a script's function calls may nest.
pub const MAX_CALL_LEVELS: usize = 16;
/// The longest string a script may build, in bytes (rhai counts bytes).
pub const MAX_STRING: usize = 4096;
/// The most items an array or a map of a script may hold.
pub const MAX_COLLECTION: usize = 256;

/// Builtin functions of rhai itself (not from packages) a script may call.
const LANGUAGE_BUILTINS: &[&str] = &[
    "type_of",
    "Fn",
    "call",
    "curry",
    "is_def_var",
    "is_def_fn",
    "is_shared",
    "print",
    "debug",
];

/// A compiled script file.
pub struct ScriptUnit {
    /// Path relative to the data root.
    pub rel: String,
    /// Path as shown to the user.
    pub display: String,
    /// The script's text, for the line an error at run time points into.
    pub text: String,
    /// The compiled script.
    pub ast: AST,
}

/// The rhai scripting host: one sandboxed engine and every compiled script.
pub struct RhaiHost {
    engine: Engine,
    known_functions: HashSet<(String, usize)>,
    known_methods: HashSet<String>,
    /// Every compiled script; a script unit is an index into this list.
    pub units: Vec<ScriptUnit>,
    /// Shared with every run's builder (a clone per run would copy each
    /// name: a dynamic script runs at every play).
    picture_names: std::sync::Arc<[String]>,
    /// The revealing calls (`reveals`) seen when the scripts ran, by unit:
    /// options built at run time, which the syntax tree does not show.
    /// Rarely written (only a run that made such a call locks it).
    revealed_at_run: std::sync::Mutex<std::collections::BTreeMap<usize, Vec<RevealingCall>>>,
}

impl std::fmt::Debug for RhaiHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RhaiHost")
            .field(
                "units",
                &self.units.iter().map(|u| &u.rel).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// The sandboxed engine: only the packages scripts need (no clock, no I/O,
/// no modules, no eval) and limits on operations, depth and sizes.
pub fn sandbox_engine() -> Engine {
    use rhai::packages::{BasicArrayPackage, BasicMapPackage, CorePackage, Package};
    let mut engine = Engine::new_raw();
    engine.register_global_module(CorePackage::new().as_shared_module());
    engine.register_global_module(BasicArrayPackage::new().as_shared_module());
    engine.register_global_module(BasicMapPackage::new().as_shared_module());
    engine.set_max_operations(MAX_OPERATIONS);
    engine.set_max_call_levels(MAX_CALL_LEVELS);
    engine.set_max_expr_depths(64, 32);
    engine.set_max_string_size(MAX_STRING);
    engine.set_max_array_size(MAX_COLLECTION);
    engine.set_max_map_size(MAX_COLLECTION);
    engine.set_strict_variables(true);
    engine.disable_symbol("eval");
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    api::register(&mut engine);
    engine
}

fn parse_signature(sig: &str) -> Option<(String, usize)> {
    let open = sig.find('(')?;
    let name = sig[..open].trim().to_string();
    let close = sig[open..].find(')')? + open;
    let params = sig[open + 1..close].trim();
    let n = if params.is_empty() {
        0
    } else {
        params.split(',').count()
    };
    Some((name, n))
}

impl RhaiHost {
    /// A host with no script compiled yet, whose scripts may name the
    /// informants `picture_names` (`pin_picture("Woods")`), in `PictureId`
    /// order.
    pub fn new(picture_names: Vec<String>) -> RhaiHost {
        let engine = sandbox_engine();
        let mut known_functions = HashSet::new();
        let mut known_methods = HashSet::new();
        for sig in engine.gen_fn_signatures(true) {
            if let Some((name, n)) = parse_signature(&sig) {
                known_methods.insert(name.clone());
                known_functions.insert((name, n));
            }
        }
        RhaiHost {
            engine,
            known_functions,
            known_methods,
            units: Vec::new(),
            picture_names: picture_names.into(),
            revealed_at_run: Default::default(),
        }
    }

    /// Compiles one script and checks every function call in it against the
    /// API, the language and the script's own functions. Returns the unit's
    /// index, or every problem found.
    pub fn compile(
        &mut self,
        rel: &str,
        display: &str,
        source: &str,
    ) -> Result<usize, Vec<Diagnostic>> {
        // The names every script sees, so strict variables accept them. Not
        // constants here: the optimiser would fold these placeholder values in.
        let mut scope = Scope::new();
        scope.push("card", Map::new());
        scope.push("LAST_SPACE", 0_i64);
        scope.push("space", 0_i64);
        let ast = match self.engine.compile_with_scope(&scope, source) {
            Ok(ast) => ast,
            Err(e) => {
                let pos = e.position();
                let (line, col) = (pos.line().unwrap_or(1), pos.position().unwrap_or(1));
                let message = compile_message(e.err_type(), source, pos);
                // A decimal number is shown from its first digit, where
                // rhai stands past its `.`.
                let col = if message.starts_with(DECIMAL) {
                    number_start(source, line, col)
                } else {
                    col
                };
                return Err(vec![Diagnostic::new(
                    display,
                    line,
                    col,
                    format!("script does not compile: {message}"),
                )]);
            }
        };
        let problems = self.check_calls(display, &ast);
        if !problems.is_empty() {
            return Err(problems);
        }
        self.units.push(ScriptUnit {
            rel: rel.to_string(),
            display: display.to_string(),
            text: source.to_string(),
            ast,
        });
        Ok(self.units.len() - 1)
    }

    fn check_calls(&self, display: &str, ast: &AST) -> Vec<Diagnostic> {
        use rhai::{ASTNode, Expr, Stmt};
        let script_fns: HashSet<(String, usize)> = ast
            .iter_functions()
            .map(|f| (f.name.to_string(), f.params.len()))
            .collect();
        let mut problems = Vec::new();
        let mut visit = |nodes: &[ASTNode]| -> bool {
            let (call, pos, method) = match nodes.last() {
                Some(ASTNode::Expr(Expr::FnCall(call, pos))) => (call, *pos, false),
                Some(ASTNode::Stmt(Stmt::FnCall(call, pos))) => (call, *pos, false),
                Some(ASTNode::Expr(Expr::MethodCall(call, pos))) => (call, *pos, true),
                _ => return true,
            };
            let name = call.name.as_str();
            let is_identifier = name
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_');
            if !is_identifier || LANGUAGE_BUILTINS.contains(&name) {
                return true;
            }
            if method {
                if !self.known_methods.contains(name) && !script_fns.iter().any(|(f, _)| f == name)
                {
                    problems.push(Diagnostic::new(
                        display,
                        pos.line().unwrap_or(1),
                        pos.position().unwrap_or(1),
                        format!("unknown method `{name}`"),
                    ));
                }
                return true;
            }
            let n = call.args.len();
            let known = script_fns.contains(&(name.to_string(), n))
                || self.known_functions.contains(&(name.to_string(), n));
            if !known {
                let mut d = unknown_call(display, name, n, pos, &self.arities(name));
                if let Some(near) = self.nearest_function(name, &script_fns) {
                    d.message.push_str(&format!("; did you mean `{near}`?"));
                }
                problems.push(d);
            }
            true
        };
        ast.walk(&mut visit);
        problems
    }

    /// The API's or the script's own function nearest to a name the API
    /// lacks, when it is a likely misspelling (`move_initative`): a few
    /// letters apart, as the data files' hints count.
    fn nearest_function(
        &self,
        name: &str,
        script_fns: &HashSet<(String, usize)>,
    ) -> Option<String> {
        if !self.arities(name).is_empty() {
            return None;
        }
        (self.known_functions.iter().chain(script_fns))
            .map(|(f, _)| (crate::diag::edit_distance(name, f), f))
            .filter(|(d, _)| *d <= 2.max(name.len() / 8))
            .min()
            .map(|(_, f)| f.clone())
    }

    /// The names of the functions a compiled script calls (API functions,
    /// its own functions and the language's), for `watergate script-api`.
    pub fn calls(&self, unit: usize) -> std::collections::BTreeSet<String> {
        use rhai::{ASTNode, Expr, Stmt};
        let mut names = std::collections::BTreeSet::new();
        if let Some(u) = self.units.get(unit) {
            u.ast.walk(&mut |nodes: &[ASTNode]| {
                match nodes.last() {
                    Some(ASTNode::Expr(Expr::FnCall(call, _)))
                    | Some(ASTNode::Stmt(Stmt::FnCall(call, _))) => {
                        names.insert(call.name.to_string());
                    }
                    _ => {}
                }
                true
            });
        }
        names
    }

    /// The calls of a compiled script to `print` and `debug`, at their line
    /// and column. The sandbox sends their text nowhere: it would mix with
    /// the reports on stdout (JSON among them) and repeat at every play of
    /// a script that reads the game, millions of times in a simulation.
    pub fn silent_calls(&self, unit: usize) -> Vec<(usize, usize, String)> {
        use rhai::{ASTNode, Expr, Stmt};
        let mut out = Vec::new();
        if let Some(u) = self.units.get(unit) {
            u.ast.walk(&mut |nodes: &[ASTNode]| {
                if let Some(ASTNode::Expr(Expr::FnCall(call, pos)))
                | Some(ASTNode::Stmt(Stmt::FnCall(call, pos))) = nodes.last()
                {
                    if matches!(call.name.as_str(), "print" | "debug") {
                        out.push((
                            pos.line().unwrap_or(1),
                            pos.position().unwrap_or(1),
                            call.name.to_string(),
                        ));
                    }
                }
                true
            });
        }
        out
    }

    /// The calls of a compiled script whose options list what the rules
    /// may hide from the chooser (`reveals`): those written out as a map in
    /// the call, found in the syntax tree (so a script that reads the game
    /// is seen too), and those whose options were built at run time, seen
    /// when the script ran (`revealed_at_run`: at load, and at every play
    /// of a script that reads the game, as `check --deep` plays them).
    /// Each call once, in the script's order.
    pub fn revealing_calls(&self, unit: usize) -> Vec<RevealingCall> {
        use rhai::{ASTNode, Expr, Stmt};
        let mut out = Vec::new();
        let Some(u) = self.units.get(unit) else {
            return out;
        };
        u.ast.walk(&mut |nodes: &[ASTNode]| {
            let (call, pos) = match nodes.last() {
                Some(ASTNode::Expr(Expr::FnCall(call, pos)))
                | Some(ASTNode::Stmt(Stmt::FnCall(call, pos))) => (call, *pos),
                _ => return true,
            };
            let name = call.name.as_str();
            // The options, when they are a map written out (rhai may have
            // folded it into a constant): `choose_card(options, then)`, the
            // last argument of the others.
            let options = match name {
                "choose_card" => call.args.first(),
                _ => call.args.last(),
            };
            let Some(opts) = options
                .and_then(|e| e.get_literal_value(None))
                .and_then(|v| v.try_cast::<Map>())
            else {
                return true;
            };
            if let Some(reveals) = reveals(name, &opts) {
                out.push(RevealingCall {
                    line: pos.line().unwrap_or(1),
                    col: pos.position().unwrap_or(1),
                    function: name.to_string(),
                    reveals,
                });
            }
            true
        });
        let seen = self.revealed_at_run.lock().map(|m| m.get(&unit).cloned());
        for call in seen.ok().flatten().unwrap_or_default() {
            if !out.contains(&call) {
                out.push(call);
            }
        }
        out.sort_by_key(|c| (c.line, c.col));
        out
    }

    fn arities(&self, name: &str) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .known_functions
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, a)| *a)
            .collect();
        v.sort();
        v
    }

    /// Runs a script for a card. Returns the program it yields and whether it
    /// read the game (then it must be run at every play). `view` is `None`
    /// when probing at load time: reading functions then return neutral values.
    pub fn run(
        &self,
        unit: usize,
        ctx: &CardContext,
        view: Option<ScriptView>,
    ) -> Result<(Program, bool), ScriptFailure> {
        let Some(u) = self.units.get(unit) else {
            return Err(ScriptFailure {
                line: 0,
                col: 0,
                message: format!("no compiled script #{unit}"),
            });
        };
        let mut scope = KeptScopes::take(ctx);
        let constants = scope.len();
        let builder = api::Builder {
            view,
            picture_names: self.picture_names.clone(),
            card_has_informant: ctx.has_informant(),
            card_is_reaction: ctx.is_reaction(),
            last_space: ctx.last_space(),
            ..Default::default()
        };
        let (result, built) = api::with_builder(builder, || {
            self.engine.run_ast_with_scope(&mut scope, &u.ast)
        });
        KeptScopes::give_back(ctx, scope, constants);
        if !built.revealing.is_empty() {
            if let Ok(mut seen) = self.revealed_at_run.lock() {
                let calls = seen.entry(unit).or_default();
                for call in built.revealing {
                    if !calls.contains(&call) {
                        calls.push(call);
                    }
                }
            }
        }
        match result {
            Ok(()) => Ok((built.program, built.reads_state)),
            Err(e) => {
                let pos = innermost_position(&e);
                Err(ScriptFailure {
                    line: pos.line().unwrap_or(0),
                    col: pos.position().unwrap_or(0),
                    message: describe_error(&e),
                })
            }
        }
    }
}

/// The scope a script runs in: its context's constants (`card`,
/// `LAST_SPACE`, `space`), then whatever the script declares.
fn context_scope(ctx: &CardContext) -> Scope<'static> {
    let mut scope = Scope::new();
    scope.push_constant("card", Dynamic::from_map(ctx.card().clone()));
    scope.push_constant("LAST_SPACE", ctx.last_space());
    if let Some(space) = ctx.space() {
        scope.push_constant("space", space);
    }
    scope
}

/// The scope a script last ran in, kept in its context (`HostKeep`) for
/// the next run: a script that reads the game runs at every play, and
/// copying its `card` map into a fresh scope each time was a fifth of
/// such a run (BENCHMARKS.md, session 6). What a run declares is dropped
/// when it ends (`Scope::rewind`); the constants stay as built, since rhai
/// refuses every change to a constant (`card.name = …`, `card.remove(…)`:
/// errors at their position), and a copy (`let c = card`) is the
/// script's own.
struct KeptScopes;

impl KeptScopes {
    /// The scope for a run in `ctx`: a kept one, or a new one.
    fn take(ctx: &CardContext) -> Scope<'static> {
        ctx.keep()
            .take::<Scope<'static>>()
            .unwrap_or_else(|| context_scope(ctx))
    }

    /// Keeps `scope` in `ctx` for a later run, without what the run
    /// declared after its first `constants` entries.
    fn give_back(ctx: &CardContext, mut scope: Scope<'static>, constants: usize) {
        scope.rewind(constants);
        ctx.keep().give_back(scope);
    }
}

impl ScriptHost for RhaiHost {
    fn run(
        &self,
        unit: usize,
        ctx: &CardContext,
        view: Option<ScriptView>,
    ) -> Result<(Program, bool), ScriptFailure> {
        RhaiHost::run(self, unit, ctx, view)
    }

    fn display(&self, unit: usize) -> &str {
        self.units.get(unit).map_or("", |u| u.display.as_str())
    }

    fn text(&self, unit: usize) -> &str {
        self.units.get(unit).map_or("", |u| u.text.as_str())
    }

    fn units(&self) -> usize {
        self.units.len()
    }

    fn file(&self, unit: usize) -> &str {
        self.units.get(unit).map_or("", |u| u.rel.as_str())
    }

    fn calls(&self, unit: usize) -> std::collections::BTreeSet<String> {
        RhaiHost::calls(self, unit)
    }

    fn revealing_calls(&self, unit: usize) -> Vec<RevealingCall> {
        RhaiHost::revealing_calls(self, unit)
    }

    fn silent_calls(&self, unit: usize) -> Vec<(usize, usize, String)> {
        RhaiHost::silent_calls(self, unit)
    }

    fn does_nothing(&self, unit: usize) -> bool {
        self.units.get(unit).is_some_and(|u| {
            let mut any = false;
            u.ast.walk(&mut |_| {
                any = true;
                false
            });
            !any
        })
    }
}

/// What a choice made by `function` with these options lists that the
/// rules may hide from its chooser: a `colour` on research-track evidence
/// without `face: "up"` (face-down tokens are then listed by their hidden
/// colours), or `choose_card` with `owner: "opponent"` in the hand. The
/// one judgement of `RhaiHost::revealing_calls`, whether the options are
/// written in the script or built when it runs (`api`).
pub(crate) fn reveals(function: &str, opts: &Map) -> Option<Reveals> {
    // The functions that choose among research-track evidence with an
    // evidence filter (board evidence is public, R5.14).
    const TRACK_EVIDENCE: [&str; 4] = [
        "move_evidence",
        "place_evidence",
        "return_track_evidence_to_bag",
        "pin_track_evidence",
    ];
    let text = |key: &str| opts.get(key).and_then(|v| v.clone().into_string().ok());
    if TRACK_EVIDENCE.contains(&function) {
        // A colour that is none (`purple`) is an error when the script
        // runs, not this.
        let colour = text("colour").filter(|c| Colour::parse(c).is_some())?;
        match text("face").as_deref() {
            None | Some("any") | Some("down") => Some(Reveals::FaceDownByColour(colour)),
            _ => None,
        }
    } else if function == "choose_card"
        && text("owner").as_deref() == Some("opponent")
        && matches!(text("zone").as_deref(), None | Some("hand"))
    {
        Some(Reveals::OpponentHand)
    } else {
        None
    }
}

fn unknown_call(
    display: &str,
    name: &str,
    n: usize,
    pos: Position,
    arities: &[usize],
) -> Diagnostic {
    let hint = if arities.is_empty() {
        "not a function of the card script API (see `watergate script-api`)".to_string()
    } else {
        format!(
            "expected {} argument(s)",
            arities
                .iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(" or ")
        )
    };
    Diagnostic::new(
        display,
        pos.line().unwrap_or(1),
        pos.position().unwrap_or(1),
        format!("unknown function `{name}` with {n} argument(s): {hint}"),
    )
}

/// A call of an API function with values of the wrong kind, which rhai
/// reports as a function not found with the argument types it has
/// (`move_momentum (&str | ImmutableString | String)`): said in the API's
/// terms, with the signature it takes. `None` for a name the API lacks.
fn wrong_types(sig: &str) -> Option<String> {
    let (name, args) = sig.split_once(" (")?;
    let takes: Vec<&str> = api::API
        .iter()
        .map(|d| d.signature)
        .filter(|s| s.split('(').next() == Some(name))
        .collect();
    let kind = |t: &str| match t.trim() {
        t if t.contains("String") || t.contains("&str") => "a string",
        "i64" | "INT" => "a whole number",
        "f64" | "f32" | "FLOAT" => "a decimal number",
        "bool" => "true or false",
        t if t.contains("Array") => "an array",
        t if t.contains("Map") => "a map",
        "()" => "nothing (`()`)",
        "FnPtr" => "a function",
        _ => "a value of another kind",
    };
    // One closing bracket is the list's: `()` is an argument's type.
    let args = args.strip_suffix(')').unwrap_or(args);
    let given: Vec<&str> = args
        .split(", ")
        .filter(|a| !a.is_empty())
        .map(kind)
        .collect();
    // Nothing is what a map gives for a field it lacks: the usual way a
    // script gets it is `card.steps` on a card that has no steps.
    let nothing = if args.split(", ").any(|a| a.trim() == "()") {
        "; nothing is what a map gives for a field it lacks: does the card have \
         that field? (`watergate script-api` describes `card`)"
    } else {
        ""
    };
    if takes.is_empty() {
        // An operator (`+`, `<`, `==`…) given values it cannot combine.
        if name.chars().any(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        return Some(format!(
            "`{name}` cannot take {}{nothing}",
            given.join(" and ")
        ));
    }
    Some(format!(
        "`{name}` was given {} where it takes `{}` (see `watergate script-api`){nothing}",
        if given.is_empty() {
            "no value".to_string()
        } else {
            given.join(", ")
        },
        takes.join("` or `")
    ))
}

/// A compile error in words a designer can act on: a decimal number (`2.5`,
/// which the card-script language has not: values are whole numbers) is
/// read by rhai as a property access and reported as "Expecting name of a
/// property".
const DECIMAL: &str =
    "a decimal number: card scripts count in whole numbers (steps, spaces, cards)";

/// The column where the number holding column `col` of `line` starts.
fn number_start(source: &str, line: usize, col: usize) -> usize {
    let chars: Vec<char> = source
        .lines()
        .nth(line.saturating_sub(1))
        .map_or_else(Vec::new, |l| l.chars().collect());
    let mut start = col;
    while start > 1
        && chars
            .get(start - 2)
            .is_some_and(|c| c.is_ascii_digit() || *c == '.' || *c == '_')
    {
        start -= 1;
    }
    start
}

fn compile_message(e: &rhai::ParseErrorType, source: &str, pos: Position) -> String {
    let at = |line: usize, col: usize| {
        source
            .lines()
            .nth(line.saturating_sub(1))
            .and_then(|l| l.chars().nth(col.saturating_sub(2)))
    };
    if let rhai::ParseErrorType::PropertyExpected = e {
        if let (Some(line), Some(col)) = (pos.line(), pos.position()) {
            // `2.5`: the error stands at `5`, after a `.` after a digit.
            if at(line, col) == Some('.') && at(line, col - 1).is_some_and(|c| c.is_ascii_digit()) {
                return DECIMAL.to_string();
            }
        }
    }
    e.to_string()
}

/// The position of the innermost error: inside a closure or a called
/// function rather than at the outer call.
fn innermost_position(e: &rhai::EvalAltResult) -> Position {
    use rhai::EvalAltResult as E;
    match e {
        E::ErrorInFunctionCall(_, _, inner, pos) => {
            let p = innermost_position(inner);
            if p.is_none() {
                *pos
            } else {
                p
            }
        }
        other => other.position(),
    }
}

fn describe_error(e: &rhai::EvalAltResult) -> String {
    use rhai::EvalAltResult as E;
    match e {
        E::ErrorInFunctionCall(_, _, inner, _) => describe_error(inner),
        E::ErrorRuntime(v, _) => v.to_string(),
        E::ErrorTooManyOperations(_) => format!(
            "stopped by the sandbox: more than {MAX_OPERATIONS} operations (an endless loop?)"
        ),
        E::ErrorStackOverflow(_) => {
            format!("stopped by the sandbox: calls nested deeper than {MAX_CALL_LEVELS} (runaway recursion?)")
        }
        E::ErrorDataTooLarge(what, _) => format!("stopped by the sandbox: {what} too large"),
        E::ErrorFunctionNotFound(sig, _) => wrong_types(sig).unwrap_or_else(|| e.to_string()),
        other => {
            let mut s = other.to_string();
            if let Some(i) = s.rfind(" (line ") {
                s.truncate(i);
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::program;

    fn host() -> RhaiHost {
        RhaiHost::new(vec!["Woods".into()])
    }

    fn ctx() -> CardContext {
        CardContext::new(Map::new(), None, false, 5)
    }

    #[test]
    fn api_table_matches_registration() {
        let h = host();
        for name in api::api_names() {
            assert!(
                h.known_methods.contains(name),
                "documented but not registered: {name}"
            );
        }
    }

    #[test]
    fn unknown_function_is_reported_with_position() {
        let mut h = host();
        let e = h
            .compile(
                "s.rhai",
                "s.rhai",
                "move_initiative(2);\nmove_initiatve(2);",
            )
            .unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].line, e[0].col), (2, 1));
        assert!(
            e[0].message.contains("unknown function `move_initiatve`"),
            "{}",
            e[0].message
        );
    }

    #[test]
    fn unknown_function_inside_closure_is_reported() {
        let mut h = host();
        let e = h
            .compile(
                "s.rhai",
                "s.rhai",
                "one_of(\"x\", [[\"a\", || frobnicate()]]);",
            )
            .unwrap_err();
        assert!(e[0].message.contains("frobnicate"));
    }

    /// `card.steps` on a card without steps is nothing (`()`): rhai's own
    /// message was "Function not found: + ((), i64) (line 1, position 18)".
    #[test]
    fn an_operator_given_a_missing_field_says_what_nothing_is() {
        let mut h = host();
        let u = h
            .compile("s.rhai", "s.rhai", "move_initiative(card.steps + 1);")
            .unwrap();
        let e = h.run(u, &ctx(), None).unwrap_err();
        assert_eq!((e.line, e.col), (1, 28));
        assert_eq!(
            e.message,
            "`+` cannot take nothing (`()`) and a whole number; nothing is what a map gives \
             for a field it lacks: does the card have that field? (`watergate script-api` \
             describes `card`)"
        );
    }

    /// Nothing given to an API function was "a value of another kind": the
    /// signature's `()` lost its bracket to the list's.
    #[test]
    fn a_function_given_nothing_says_so() {
        let mut h = host();
        let u = h
            .compile(
                "s.rhai",
                "s.rhai",
                "let x = card.stepz;\nmove_initiative(x);",
            )
            .unwrap();
        let e = h.run(u, &ctx(), None).unwrap_err();
        assert!(
            e.message.starts_with(
                "`move_initiative` was given nothing (`()`) where it takes `move_initiative(steps)`"
            ),
            "{}",
            e.message
        );
        assert!(e.message.contains("a field it lacks"), "{}", e.message);
    }

    #[test]
    fn endless_loop_is_stopped() {
        let mut h = host();
        let u = h
            .compile("s.rhai", "s.rhai", "let x = 0;\nloop { x += 1; }")
            .unwrap();
        let e = h.run(u, &ctx(), None).unwrap_err();
        assert!(e.message.contains("operations"), "{}", e.message);
    }

    #[test]
    fn branch_builds_jumps() {
        let mut h = host();
        let u = h
            .compile(
                "s.rhai",
                "s.rhai",
                "one_of(\"pick\", [[\"a\", || move_initiative(1)], [\"b\", || move_momentum(2)]]);",
            )
            .unwrap();
        let (p, reads) = h.run(u, &ctx(), None).unwrap();
        assert!(!reads);
        assert_eq!(p.len(), 5);
        match &p[0] {
            program::Instr::Branch(program::Branch { options, .. }) => {
                assert_eq!(options.iter().map(|o| o.1).collect::<Vec<_>>(), vec![1, 3])
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(p[2], program::Instr::Jump(program::Jump { to: 5 }));
        assert_eq!(p[4], program::Instr::Jump(program::Jump { to: 5 }));
    }
}
