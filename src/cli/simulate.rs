//! `cogitator simulate`: one weapon profile against one target, exact or Monte Carlo.
//!
//! Owns the flags and their ranges (one `Limit` per characteristic, checked by clap value
//! parsers so `--help` and the errors name the range), reading the dataset files named on the
//! command line, name lookup with typographic folding and close-match suggestions, and
//! rendering (JSON or a text histogram), always preceded by the full scenario actually
//! simulated with the source of every value (flag, default, dataset, reference target, or a
//! flag overriding the dataset). The rules and arithmetic live in `cogitator::simulate`;
//! nothing here decides what a keyword does.
//!
//! CLI rules (see `docs/simulator.md`): the profile characteristics (A, BS/WS, S, AP, D and T,
//! Sv, W) are required unless a dataset or a reference target supplies them; "no save" is
//! spelled `--save -` (or `none`); everything else has a default printed in `--help` and in
//! the output; an explicit flag overrides the dataset's value and the output says so.

use crate::model::{Datasheet, WeaponProfile};
use crate::simulate::grants::{self, Effect, Grant};
use crate::simulate::profile::{parse_range, target_from_datasheet, weapon_from_profile};
use crate::simulate::{
    self, Conditions, Dice, Keyword, Modifiers, Outcome, Reroll, Rules, Scenario, Target, Weapon,
};
use crate::validate::{self, ReferenceTarget};
use anyhow::{anyhow, bail, Context};
use std::path::PathBuf;

/// Most Monte Carlo trials one run may ask for. The Monte Carlo engine is a cross-check; at
/// 10,000,000 trials its standard error is σ/3162, about 0.03% of σ.
pub const MAX_MONTE_CARLO: u64 = 10_000_000;

const EXAMPLES: &str = "\
Examples:
  # 10 models, A2 BS3+ S4 AP-1 D1, against 10 models of T3 Sv5+ W1
  cogitator simulate --attackers 10 --attacks 2 --skill 3+ --strength 4 --ap -1 --damage 1 \\
    --toughness 3 --save 5+ --wounds 1 --models 10
  # no armour save is spelled out
  cogitator simulate --attacks D6 --skill N/A --strength 4 --ap 0 --damage 1 \\
    --keywords TORRENT --toughness 3 --save - --wounds 1 --models 10
  # weapon from a dataset, target from the reference panel, one value overridden
  cogitator simulate --dataset output --datasheet 10e:chaos-daemons:belakor \\
    --weapon \"Betraying Shades - witchfire\" --target elite-infantry --attacks 3

Required: A, BS/WS, S, AP, D (unless --dataset) and T, Sv, W (unless --target). Every other
value has the default shown above. Explicit flags override the dataset's or the reference
target's value, and the output says so. The scenario actually simulated, with the source of
every value, is printed before the results (and as \"scenario\" with --json).";

/// Arguments of `cogitator simulate` (boxed: the flag set is large).
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true, after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub flags: Box<Flags>,
}

/// The flags of `cogitator simulate`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Flags {
    /// Attacks characteristic (required unless --dataset): `3`, `D6`, `D6+1`, `2D6`; minimum at
    /// least 1, at most 10 dice, constants up to 999.
    #[arg(long, value_name = "A", value_parser = parse_attacks, help_heading = "Weapon",
          required_unless_present = "dataset")]
    pub attacks: Option<Dice>,
    /// BS/WS (required unless --dataset): `2+` to `6+`, or `N/A` (TORRENT only).
    #[arg(long, value_name = "BS/WS", value_parser = parse_skill, help_heading = "Weapon",
          required_unless_present = "dataset")]
    pub skill: Option<Skill>,
    /// Strength (required unless --dataset): 1 to 100.
    #[arg(long, value_name = "S", value_parser = parse_strength, help_heading = "Weapon",
          required_unless_present = "dataset")]
    pub strength: Option<u32>,
    /// AP as printed (required unless --dataset): `0` to `-6`.
    #[arg(long, value_name = "AP", value_parser = parse_ap, allow_hyphen_values = true,
          help_heading = "Weapon", required_unless_present = "dataset")]
    pub ap: Option<i32>,
    /// Damage characteristic (required unless --dataset): `1`, `D3`, `D6+1`; minimum at least
    /// 1, at most 10 dice, constants up to 999.
    #[arg(long, value_name = "D", value_parser = parse_damage, help_heading = "Weapon",
          required_unless_present = "dataset")]
    pub damage: Option<Dice>,
    /// Comma-separated weapon keywords: `"SUSTAINED HITS 1,LETHAL HITS"` [default: none].
    #[arg(long, value_name = "LIST", help_heading = "Weapon")]
    pub keywords: Option<String>,
    /// Number of attacking models: 1 to 200 [default: 1].
    #[arg(long, value_name = "N", value_parser = parse_attackers, help_heading = "Weapon")]
    pub attackers: Option<u32>,
    /// Weapon range as printed (`24"`, or `Melee`), informational [default: ranged].
    #[arg(long, value_name = "RANGE", help_heading = "Weapon")]
    pub range: Option<String>,
    /// The weapon is a melee weapon (no STEALTH, cover, HEAVY or INDIRECT FIRE) [default: ranged].
    #[arg(long, help_heading = "Weapon")]
    pub melee: bool,

    /// Toughness (required unless --target): 1 to 100.
    #[arg(long, value_name = "T", value_parser = parse_toughness, help_heading = "Target",
          required_unless_present = "target")]
    pub toughness: Option<u32>,
    /// Armour save (required unless --target): `2+` to `6+`, or `-` / `none` for no save.
    #[arg(long, value_name = "SV", value_parser = parse_save, allow_hyphen_values = true,
          help_heading = "Target", required_unless_present = "target")]
    pub save: Option<Threshold>,
    /// Wounds of each target model (required unless --target): 1 to 100.
    #[arg(long, value_name = "W", value_parser = parse_wounds, help_heading = "Target",
          required_unless_present = "target")]
    pub wounds: Option<u32>,
    /// Number of target models: 1 to 200 [default: 1].
    #[arg(long, value_name = "N", value_parser = parse_models, help_heading = "Target")]
    pub models: Option<u32>,
    /// Invulnerable save: `2+` to `6+`, or `-` / `none` [default: none].
    #[arg(long, value_name = "SV", value_parser = parse_invuln, allow_hyphen_values = true,
          help_heading = "Target")]
    pub invuln: Option<Threshold>,
    /// Feel No Pain: `2+` to `6+`, or `-` / `none` [default: none].
    #[arg(long, value_name = "X+", value_parser = parse_fnp, allow_hyphen_values = true,
          help_heading = "Target")]
    pub fnp: Option<Threshold>,
    /// Comma-separated target keywords, for ANTI-x [default: none].
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "Target"
    )]
    pub target_keywords: Option<Vec<String>>,

    /// The target is within half range (RAPID FIRE, MELTA) [default: no].
    #[arg(long, help_heading = "Conditions")]
    pub half_range: bool,
    /// The attacking unit remained stationary (HEAVY) [default: no].
    #[arg(long, help_heading = "Conditions")]
    pub stationary: bool,
    /// The bearer made a Charge move this turn (LANCE) [default: no].
    #[arg(long, help_heading = "Conditions")]
    pub charged: bool,
    /// The target has the Benefit of Cover [default: no].
    #[arg(long, help_heading = "Conditions")]
    pub cover: bool,
    /// The target has STEALTH [default: no].
    #[arg(long, help_heading = "Conditions")]
    pub stealth: bool,
    /// The target is not visible (INDIRECT FIRE) [default: visible].
    #[arg(long, help_heading = "Conditions")]
    pub not_visible: bool,
    /// The target is beyond the distance the weapon's CONVERSION rule names (12", 18" or 24",
    /// printed in the rule) [default: no].
    #[arg(long, help_heading = "Conditions")]
    pub beyond_conversion: bool,
    /// 11th edition indirect shooting: the target is visible to a friendly unit (with
    /// --stationary, an unmodified 1-3 fails instead of 1-5) [default: no].
    #[arg(long, help_heading = "Conditions")]
    pub spotted: bool,
    /// Rules edition [default: 10e].
    #[arg(long, value_parser = ["10e", "9e", "11e"], help_heading = "Conditions")]
    pub edition: Option<String>,

    /// Re-roll hit rolls of 1 (`ones`) or every failed hit roll (`failed`) [default: none].
    #[arg(long, value_name = "WHICH", value_parser = parse_reroll, help_heading = "Modifiers")]
    pub reroll_hits: Option<Reroll>,
    /// Re-roll wound rolls of 1 or every failed wound roll (TWIN-LINKED is `failed`)
    /// [default: none].
    #[arg(long, value_name = "WHICH", value_parser = parse_reroll, help_heading = "Modifiers")]
    pub reroll_wounds: Option<Reroll>,
    /// Added to the hit roll: -6 to 6; the sum with HEAVY, STEALTH, … is capped at ±1
    /// [default: 0].
    #[arg(long, value_name = "N", value_parser = parse_modifier, allow_hyphen_values = true,
          help_heading = "Modifiers")]
    pub hit_modifier: Option<i32>,
    /// Added to the wound roll: -6 to 6; the sum with LANCE is capped at ±1 [default: 0].
    #[arg(long, value_name = "N", value_parser = parse_modifier, allow_hyphen_values = true,
          help_heading = "Modifiers")]
    pub wound_modifier: Option<i32>,
    /// A Critical Hit on an unmodified `2+` to `6+` [default: 6+].
    #[arg(long, value_name = "K+", value_parser = parse_crit, help_heading = "Modifiers")]
    pub crit_hit: Option<Threshold>,
    /// A Critical Wound on an unmodified `2+` to `6+` (ANTI's lower threshold wins)
    /// [default: 6+].
    #[arg(long, value_name = "K+", value_parser = parse_crit, help_heading = "Modifiers")]
    pub crit_wound: Option<Threshold>,
    /// Each attack's damage minus N, to a minimum of 1 (after MELTA and halving): 0 to 6
    /// [default: 0].
    #[arg(long, value_name = "N", value_parser = parse_reduction, help_heading = "Modifiers")]
    pub damage_reduction: Option<u32>,
    /// Each attack's damage halved, rounding up (after MELTA) [default: no].
    #[arg(long, help_heading = "Modifiers")]
    pub halve_damage: bool,
    /// Feel No Pain against mortal wounds only (Devastating Wounds); with --fnp, the better
    /// roll applies to each mortal wound: `2+` to `6+` [default: none].
    #[arg(long, value_name = "X+", value_parser = parse_fnp_mortal, allow_hyphen_values = true,
          help_heading = "Modifiers")]
    pub fnp_mortal: Option<Threshold>,

    /// Dataset directory (with `datasheets.json`) to take the weapon (and target) from.
    #[arg(long, value_name = "DIR", requires_all = ["datasheet", "weapon"], help_heading = "Dataset")]
    pub dataset: Option<PathBuf>,
    /// Datasheet id (or name) of the attacker (with --dataset).
    #[arg(
        long,
        value_name = "ID",
        requires = "dataset",
        help_heading = "Dataset"
    )]
    pub datasheet: Option<String>,
    /// Weapon name on that datasheet (with --dataset); dashes, quotes, case and spaces are
    /// folded, and close matches are listed when it is not found.
    #[arg(
        long,
        value_name = "NAME",
        requires = "dataset",
        help_heading = "Dataset"
    )]
    pub weapon: Option<String>,
    /// Reference target name (the panel), or a datasheet id or name (with --dataset).
    #[arg(long, value_name = "NAME|ID", help_heading = "Dataset")]
    pub target: Option<String>,
    /// Reference target panel to use instead of the embedded one (schemas/targets.yaml), with
    /// --target.
    #[arg(
        long,
        value_name = "FILE",
        requires = "target",
        help_heading = "Dataset"
    )]
    pub targets: Option<PathBuf>,

    /// Print the result (and the scenario) as JSON.
    #[arg(long, help_heading = "Output and method")]
    pub json: bool,
    /// Run the Monte Carlo engine with N trials (1 to 10,000,000) instead of the exact one.
    #[arg(long, value_name = "N", value_parser = parse_trials, help_heading = "Output and method")]
    pub monte_carlo: Option<u64>,
    /// Seed of the Monte Carlo generator (rand_pcg::Pcg64), with --monte-carlo [default: 0].
    #[arg(
        long,
        value_name = "SEED",
        requires = "monte_carlo",
        help_heading = "Output and method"
    )]
    pub seed: Option<u64>,
}

// --- values and their ranges --------------------------------------------------------------------

/// A BS/WS value: `Some(2..=6)`, or `None` for `N/A`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skill(pub Option<u8>);

/// A save or Feel No Pain value: `Some(2..=6)`, or `None` for none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Threshold(pub Option<u8>);

/// The range of one characteristic: what the engine accepts, and what the rules say.
struct Limit {
    what: &'static str,
    lo: i64,
    hi: i64,
    rules: &'static str,
}

const ATTACKERS: Limit = Limit {
    what: "attacking model count",
    lo: 1,
    hi: 200,
    rules: "rules: at least 1; engine limit 200",
};
const MODELS: Limit = Limit {
    what: "target model count",
    lo: 1,
    hi: 200,
    rules: "rules: at least 1; engine limit 200",
};
const STRENGTH: Limit = Limit {
    what: "strength",
    lo: 1,
    hi: 100,
    rules: "rules: at least 1; engine limit 100",
};
const TOUGHNESS: Limit = Limit {
    what: "toughness",
    lo: 1,
    hi: 100,
    rules: "rules: at least 1; engine limit 100",
};
const WOUNDS: Limit = Limit {
    what: "wounds",
    lo: 1,
    hi: 100,
    rules: "rules: at least 1; engine limit 100",
};
const AP: Limit = Limit {
    what: "AP",
    lo: -6,
    hi: 0,
    rules: "rules: 0 or negative; engine limit -6",
};
const SKILL: Limit = Limit {
    what: "skill (BS/WS)",
    lo: 2,
    hi: 6,
    rules: "or N/A with TORRENT; the rules' range and the engine's",
};
const SAVE: Limit = Limit {
    what: "save",
    lo: 2,
    hi: 6,
    rules: "or - / none for no save; the rules' range and the engine's",
};
const INVULN: Limit = Limit {
    what: "invulnerable save",
    lo: 2,
    hi: 6,
    rules: "or - / none; the rules' range and the engine's",
};
const FNP: Limit = Limit {
    what: "Feel No Pain",
    lo: 2,
    hi: 6,
    rules: "or - / none; the rules' range and the engine's",
};
const ATTACKS: Limit = Limit {
    what: "attacks (A)",
    lo: 1,
    hi: 999,
    rules: "rules: at least 1 attack; engine: at most 10 D3/D6 dice, constants up to 999",
};
const DAMAGE: Limit = Limit {
    what: "damage (D)",
    lo: 1,
    hi: 999,
    rules: "rules: at least 1 damage; engine: at most 10 D3/D6 dice, constants up to 999",
};
const MODIFIER: Limit = Limit {
    what: "roll modifier",
    lo: -6,
    hi: 6,
    rules: "the sum of a roll's modifiers is capped at +1/-1 by the rules",
};
const CRIT: Limit = Limit {
    what: "critical threshold",
    lo: 2,
    hi: 6,
    rules: "an unmodified roll; the rules' range and the engine's",
};
const REDUCTION: Limit = Limit {
    what: "damage reduction",
    lo: 0,
    hi: 6,
    rules: "damage never goes below 1",
};
const FNP_MORTAL: Limit = Limit {
    what: "Feel No Pain against mortal wounds",
    lo: 2,
    hi: 6,
    rules: "or - / none; the rules' range and the engine's",
};
const TRIALS: Limit = Limit {
    what: "Monte Carlo trial count",
    lo: 1,
    hi: MAX_MONTE_CARLO as i64,
    rules: "a fixed cap; for exact numbers run without --monte-carlo",
};

/// The one range check every characteristic goes through. `shown` is how the range is
/// printed (`1 to 200`, `2+ to 6+`); the message names the value, the range and the rules'.
fn check(limit: &Limit, raw: &str, v: Option<i64>, shown: &str) -> Result<i64, String> {
    match v {
        Some(v) if (limit.lo..=limit.hi).contains(&v) => Ok(v),
        _ => Err(format!(
            "{raw:?} is not a valid {}: expected {shown} ({})",
            limit.what, limit.rules
        )),
    }
}

fn integer(limit: &Limit, s: &str) -> Result<i64, String> {
    let t = s.trim().replace(['–', '−'], "-");
    let shown = format!("a whole number from {} to {}", limit.lo, limit.hi);
    check(limit, s, t.parse::<i64>().ok(), &shown)
}

fn count(limit: &Limit, s: &str) -> Result<u32, String> {
    integer(limit, s).map(|v| v as u32)
}

fn is_none_word(t: &str) -> bool {
    matches!(t, "-" | "–" | "—") || t.eq_ignore_ascii_case("none")
}

fn threshold(limit: &Limit, s: &str) -> Result<Option<u8>, String> {
    let t = s.trim();
    if is_none_word(t) {
        return Ok(None);
    }
    // `9+` must say "out of range", not "not understood": parse any number before the `+`.
    let n = t
        .strip_suffix('+')
        .and_then(|n| n.trim().parse::<i64>().ok());
    let shown = format!("{}+ to {}+", limit.lo, limit.hi);
    check(limit, s, n, &shown).map(|v| Some(v as u8))
}

fn dice(limit: &Limit, s: &str) -> Result<Dice, String> {
    let d = Dice::parse(s).map_err(|e| format!("{e} ({})", limit.rules))?;
    let shown = format!(
        "a dice expression whose smallest value is at least {} (1, D3, D6+1, 2D6)",
        limit.lo
    );
    check(limit, s, Some(i64::from(d.min())), &shown)?;
    Ok(d)
}

fn parse_attackers(s: &str) -> Result<u32, String> {
    count(&ATTACKERS, s)
}
fn parse_models(s: &str) -> Result<u32, String> {
    count(&MODELS, s)
}
fn parse_strength(s: &str) -> Result<u32, String> {
    count(&STRENGTH, s)
}
fn parse_toughness(s: &str) -> Result<u32, String> {
    count(&TOUGHNESS, s)
}
fn parse_wounds(s: &str) -> Result<u32, String> {
    count(&WOUNDS, s)
}
fn parse_ap(s: &str) -> Result<i32, String> {
    integer(&AP, s).map(|v| v as i32)
}
fn parse_skill(s: &str) -> Result<Skill, String> {
    let t = s.trim();
    // `N/A`, or the dash some datasheets print for it (as `profile::parse_skill` reads).
    if t.eq_ignore_ascii_case("N/A") || matches!(t, "-" | "–" | "—") {
        return Ok(Skill(None));
    }
    threshold(&SKILL, s).map(Skill)
}
fn parse_save(s: &str) -> Result<Threshold, String> {
    threshold(&SAVE, s).map(Threshold)
}
fn parse_invuln(s: &str) -> Result<Threshold, String> {
    threshold(&INVULN, s).map(Threshold)
}
fn parse_fnp(s: &str) -> Result<Threshold, String> {
    threshold(&FNP, s).map(Threshold)
}
fn parse_reroll(s: &str) -> Result<Reroll, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "ones" | "1" | "1s" => Ok(Reroll::Ones),
        "failed" | "fails" => Ok(Reroll::Failed),
        _ => Err(format!(
            "{s:?} is not a re-roll: expected `ones` (unmodified rolls of 1) or `failed` (every roll that fails)"
        )),
    }
}
fn parse_modifier(s: &str) -> Result<i32, String> {
    integer(&MODIFIER, s.trim().trim_start_matches('+')).map(|v| v as i32)
}
fn parse_crit(s: &str) -> Result<Threshold, String> {
    match threshold(&CRIT, s)? {
        None => Err(format!(
            "{s:?} is not a critical threshold: expected 2+ to 6+"
        )),
        t => Ok(Threshold(t)),
    }
}
fn parse_reduction(s: &str) -> Result<u32, String> {
    count(&REDUCTION, s)
}
fn parse_fnp_mortal(s: &str) -> Result<Threshold, String> {
    threshold(&FNP_MORTAL, s).map(Threshold)
}
fn parse_attacks(s: &str) -> Result<Dice, String> {
    dice(&ATTACKS, s)
}
fn parse_damage(s: &str) -> Result<Dice, String> {
    dice(&DAMAGE, s)
}
fn parse_trials(s: &str) -> Result<u64, String> {
    let t = s.trim().replace(['_', ','], "");
    let shown = "a whole number from 1 to 10,000,000";
    check(&TRIALS, s, t.parse::<i64>().ok(), shown).map(|v| v as u64)
}

// --- names: typographic folding and close matches -----------------------------------------------

/// Folds what typography varies: case, dashes (`–` `—` `−` → `-`), quotes (`’` → `'`, `”` →
/// `"`), runs of whitespace, and spaces around dashes.
pub fn fold(s: &str) -> String {
    let mapped: String = s
        .chars()
        .map(|c| match c {
            '‐' | '‑' | '‒' | '–' | '—' | '―' | '−' => '-',
            '‘' | '’' | '‚' | '‛' | '′' | '`' | '´' => '\'',
            '“' | '”' | '„' | '‟' | '″' => '"',
            c => c,
        })
        .flat_map(char::to_lowercase)
        .collect();
    let words: Vec<&str> = mapped.split_whitespace().collect();
    words.join(" ").replace(" -", "-").replace("- ", "-")
}

/// Closeness of a candidate to a query (lower is closer): edit distance on the folded names,
/// less a bonus for each shared word and for containing one another.
fn distance(query: &str, candidate: &str) -> usize {
    let (q, c) = (fold(query), fold(candidate));
    let words = |s: &str| -> Vec<String> {
        s.split(|ch: char| !ch.is_alphanumeric())
            .filter(|w| w.len() > 1)
            .map(str::to_string)
            .collect()
    };
    let cw = words(&c);
    let shared = words(&q).iter().filter(|w| cw.contains(w)).count();
    let contains = usize::from(c.contains(&q) || q.contains(&c));
    strsim::levenshtein(&q, &c).saturating_sub(3 * shared + 5 * contains)
}

/// Finds `query` among `names` (compared folded). Returns the index, or an error that lists
/// the closest names (at most 5), or all of them when there are few.
fn find_name(kind: &str, query: &str, place: &str, names: &[String]) -> anyhow::Result<usize> {
    let q = fold(query);
    let hits: Vec<usize> = (0..names.len()).filter(|&i| fold(&names[i]) == q).collect();
    match hits.as_slice() {
        [i] => return Ok(*i),
        [] => {}
        many => {
            let list: Vec<String> = many.iter().map(|&i| format!("{:?}", names[i])).collect();
            bail!("{kind} {query:?}{place} is ambiguous: {}", list.join(", "));
        }
    }
    let mut ranked: Vec<(usize, &String)> = names.iter().map(|n| (distance(query, n), n)).collect();
    ranked.sort();
    let list: Vec<String> = ranked
        .iter()
        .take(5)
        .map(|(_, n)| format!("  {n}"))
        .collect();
    if list.is_empty() {
        bail!("no {kind} {query:?}{place} (there are none to choose from)");
    }
    let more = if names.len() > 5 {
        format!(" ({} more not shown)", names.len() - 5)
    } else {
        String::new()
    };
    bail!(
        "no {kind} {query:?}{place}; closest matches{more}:\n{}",
        list.join("\n")
    )
}

// --- the scenario actually simulated, with where each value came from ---------------------------

/// One value of the simulated scenario and its source.
struct Row {
    field: &'static str,
    value: String,
    /// `from --attacks`, `default`, `from dataset`, `from reference target`.
    source: String,
    /// The dataset's (or reference target's) value an explicit flag replaced.
    replaces: Option<String>,
}

#[derive(Default)]
struct Rows(Vec<Row>);

impl Rows {
    fn push(&mut self, field: &'static str, value: String, source: String) {
        self.0.push(Row {
            field,
            value,
            source,
            replaces: None,
        });
    }

    /// Picks a value: the flag if given (overriding `base`, said so), else `base` (from
    /// `base_name`), else `default`; records where it came from.
    #[allow(clippy::too_many_arguments)]
    fn pick<T: Clone>(
        &mut self,
        field: &'static str,
        flag: &'static str,
        given: Option<T>,
        base: Option<T>,
        base_name: &str,
        default: Option<T>,
        show: impl Fn(&T) -> String,
    ) -> anyhow::Result<T> {
        let (v, source, replaces) = match (given, base, default) {
            (Some(g), Some(b), _) => {
                let was = show(&b);
                (g, format!("from {flag}, {base_name} has {was}"), Some(was))
            }
            (Some(g), None, _) => (g, format!("from {flag}"), None),
            (None, Some(b), _) => (b, format!("from {base_name}"), None),
            (None, None, Some(d)) => (d, "default".to_string(), None),
            (None, None, None) => bail!("missing {flag}"),
        };
        self.0.push(Row {
            field,
            value: show(&v),
            source,
            replaces,
        });
        Ok(v)
    }

    /// Rewrites the "dataset has" part of overridden rows with the dataset's own strings.
    fn dataset_has(&mut self, raw: &[(&'static str, String)]) {
        for (field, was) in raw {
            for r in self.0.iter_mut().filter(|r| r.field == *field) {
                if let Some(flag) = r.source.split(',').next() {
                    r.source = format!("{flag}, dataset has {was}");
                }
                r.replaces = Some(was.clone());
            }
        }
    }

    fn flag(&mut self, field: &'static str, flag: &'static str, on: bool, off: &str, yes: &str) {
        let (value, source) = if on {
            (yes.to_string(), format!("from {flag}"))
        } else {
            (off.to_string(), "default".to_string())
        };
        self.push(field, value, source);
    }

    fn to_json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        for r in &self.0 {
            let mut o = serde_json::Map::new();
            o.insert("value".into(), r.value.clone().into());
            o.insert("source".into(), r.source.clone().into());
            if let Some(w) = &r.replaces {
                o.insert("replaces".into(), w.clone().into());
            }
            m.insert(r.field.into(), o.into());
        }
        m.into()
    }
}

fn show_skill(s: &Option<u8>) -> String {
    s.map_or("N/A".into(), |n| format!("{n}+"))
}
fn show_threshold(s: &Option<u8>) -> String {
    s.map_or("-".into(), |n| format!("{n}+"))
}
fn show_list<T: std::fmt::Display>(v: &[T]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn keywords_from_flag(s: &str) -> anyhow::Result<Vec<Keyword>> {
    s.split(',')
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(|k| Keyword::parse(k).map_err(|e| anyhow!("--keywords: {e}")))
        .collect()
}

fn load_datasheets(dir: &std::path::Path) -> anyhow::Result<Vec<Datasheet>> {
    Ok(crate::dataset::DatasetDir::open(dir)?.datasheets()?)
}

/// A datasheet by id or by name (folded), or an error listing close ids and names.
fn find_datasheet<'a>(sheets: &'a [Datasheet], query: &str) -> anyhow::Result<&'a Datasheet> {
    let ids: Vec<String> = sheets.iter().map(|d| d.id.clone()).collect();
    if let Ok(i) = find_name("datasheet", query, "", &ids) {
        return Ok(&sheets[i]);
    }
    // By name, then suggestions over both ids and names.
    let mut names: Vec<String> = Vec::new();
    let mut owner: Vec<usize> = Vec::new();
    for (i, d) in sheets.iter().enumerate() {
        names.push(d.id.clone());
        owner.push(i);
        if let Some(n) = &d.name {
            names.push(n.clone());
            owner.push(i);
        }
    }
    find_name("datasheet (id or name)", query, "", &names).map(|k| &sheets[owner[k]])
}

/// What `--target` names: a reference target, or a datasheet of the dataset.
fn resolve_target<'a>(
    a: &Flags,
    query: &str,
    sheets: &'a [Datasheet],
) -> anyhow::Result<(Target, String, &'static str, Option<&'a Datasheet>)> {
    let panel: Vec<ReferenceTarget> = match &a.targets {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read {}", p.display()))?;
            validate::load_panel(&text).map_err(|e| anyhow!("{}:{e}", p.display()))?
        }
        None => validate::default_panel(),
    };
    let q = fold(query);
    if let Some(rt) = panel.iter().find(|r| fold(&r.name) == q) {
        let t = rt
            .to_target()
            .map_err(|e| anyhow!("reference target {:?}: {e}", rt.name))?;
        return Ok((t, rt.name.clone(), "reference target", None));
    }
    let mut names: Vec<String> = panel.iter().map(|r| r.name.clone()).collect();
    if !sheets.is_empty() {
        if let Some(ds) = sheets
            .iter()
            .find(|d| fold(&d.id) == q || d.name.as_deref().is_some_and(|n| fold(n) == q))
        {
            let t =
                target_from_datasheet(ds).with_context(|| format!("target datasheet {}", ds.id))?;
            return Ok((t, ds.id.clone(), "dataset", Some(ds)));
        }
        names.extend(sheets.iter().map(|d| d.id.clone()));
    }
    let kind = if sheets.is_empty() {
        "reference target (a datasheet id needs --dataset)"
    } else {
        "reference target or datasheet"
    };
    find_name(kind, query, "", &names)?;
    bail!("--target {query:?} not found")
}

/// The scenario to simulate, and the rows describing it.
fn scenario(a: &Flags) -> anyhow::Result<(Scenario, Rows)> {
    let mut rows = Rows::default();
    let sheets = match &a.dataset {
        Some(dir) => load_datasheets(dir)?,
        None => Vec::new(),
    };

    // Weapon: the dataset's profile (if any), each value overridable by its flag.
    let mut base: Option<Weapon> = None;
    let mut attacker: Option<&Datasheet> = None;
    let mut dataset_raw: Vec<(&'static str, String)> = Vec::new();
    if a.dataset.is_some() {
        let id = a
            .datasheet
            .as_deref()
            .ok_or_else(|| anyhow!("missing --datasheet"))?;
        let ds = find_datasheet(&sheets, id)?;
        attacker = Some(ds);
        let query = a
            .weapon
            .as_deref()
            .ok_or_else(|| anyhow!("missing --weapon"))?;
        let names: Vec<String> = ds.weapons.iter().map(|w| w.name.clone()).collect();
        let i = find_name("weapon", query, &format!(" on {}", ds.id), &names)?;
        let wp = &ds.weapons[i];
        // A flag replaces the dataset's string before it is read, so a value the engine
        // cannot read (a `D4`, a missing AP) can be overridden instead of failing.
        let mut patched = wp.clone();
        let mut raw: Vec<(&'static str, String)> = Vec::new();
        let mut replace =
            |field: &'static str, w: &mut WeaponProfile, name: &str, new: Option<String>| {
                if let Some(new) = new {
                    let old = w.characteristics.slot_mut(name).and_then(Option::take);
                    raw.push((field, old.unwrap_or_else(|| "nothing".into())));
                    w.set(name, Some(new));
                }
            };
        replace(
            "attacks",
            &mut patched,
            "A",
            a.attacks.map(|d| d.to_string()),
        );
        replace(
            "skill",
            &mut patched,
            "skill",
            a.skill.map(|s| show_skill(&s.0)),
        );
        replace(
            "strength",
            &mut patched,
            "S",
            a.strength.map(|v| v.to_string()),
        );
        replace("ap", &mut patched, "AP", a.ap.map(|v| v.to_string()));
        replace("damage", &mut patched, "D", a.damage.map(|d| d.to_string()));
        if a.keywords.is_some() {
            raw.push(("keywords", show_list(&patched.keywords)));
            patched.keywords.clear();
        }
        let (weapon, unknown) =
            weapon_from_profile(&patched).with_context(|| format!("weapon {:?}", wp.name))?;
        dataset_raw = raw;
        for k in unknown {
            errln!("warning[V303]: unknown weapon keyword {k:?} ignored");
        }
        rows.push(
            "weapon",
            weapon.name.clone(),
            format!("from dataset {}", ds.id),
        );
        base = Some(weapon);
    } else {
        rows.push("weapon", "weapon".into(), "from flags".into());
    }
    let b = base.as_ref();
    let attackers = rows.pick(
        "attackers",
        "--attackers",
        a.attackers,
        None,
        "",
        Some(1),
        u32::to_string,
    )?;
    let attacks = rows.pick(
        "attacks",
        "--attacks",
        a.attacks,
        b.map(|w| w.attacks),
        "dataset",
        None,
        Dice::to_string,
    )?;
    let skill = rows.pick(
        "skill",
        "--skill",
        a.skill.map(|s| s.0),
        b.map(|w| w.skill),
        "dataset",
        None,
        show_skill,
    )?;
    let strength = rows.pick(
        "strength",
        "--strength",
        a.strength,
        b.map(|w| w.strength),
        "dataset",
        None,
        u32::to_string,
    )?;
    let ap = rows.pick(
        "ap",
        "--ap",
        a.ap,
        b.map(|w| w.ap),
        "dataset",
        None,
        i32::to_string,
    )?;
    let damage = rows.pick(
        "damage",
        "--damage",
        a.damage,
        b.map(|w| w.damage),
        "dataset",
        None,
        Dice::to_string,
    )?;
    let keywords = rows.pick(
        "keywords",
        "--keywords",
        a.keywords.as_deref().map(keywords_from_flag).transpose()?,
        b.map(|w| w.keywords.clone()),
        "dataset",
        Some(Vec::new()),
        |k| show_list(k),
    )?;
    if let Some(r) = &a.range {
        parse_range(r).map_err(|e| anyhow!("--range: {e}"))?;
        rows.push(
            "range",
            r.trim().to_string(),
            "from --range, informational".into(),
        );
    }
    let range_melee = matches!(a.range.as_deref().map(parse_range), Some(Ok(None)));
    let given_melee = (a.melee || range_melee).then_some(true);
    let melee = rows.pick(
        "type",
        if a.melee { "--melee" } else { "--range" },
        given_melee,
        b.map(|w| w.melee),
        "dataset",
        Some(false),
        |&m| if m { "melee" } else { "ranged" }.to_string(),
    )?;
    // Overridden values are reported as the dataset prints them, not as read.
    rows.dataset_has(&dataset_raw);
    let weapon = Weapon {
        name: b.map_or_else(|| "weapon".to_string(), |w| w.name.clone()),
        melee,
        attacks,
        skill,
        strength,
        ap,
        damage,
        keywords,
    };

    // Target: a reference target or datasheet (if --target), each value overridable.
    let (tb, base_name, defender) = match &a.target {
        Some(q) => {
            let (t, label, base_name, ds) = resolve_target(a, q, &sheets)?;
            rows.push("target", label, format!("from --target, {base_name}"));
            (Some(t), base_name, ds)
        }
        None => {
            rows.push("target", "target".into(), "from flags".into());
            (None, "", None)
        }
    };
    let tb = tb.as_ref();
    let models = rows.pick(
        "models",
        "--models",
        a.models,
        tb.map(|t| t.models),
        base_name,
        Some(1),
        u32::to_string,
    )?;
    let toughness = rows.pick(
        "toughness",
        "--toughness",
        a.toughness,
        tb.map(|t| t.toughness),
        base_name,
        None,
        u32::to_string,
    )?;
    let save = rows.pick(
        "save",
        "--save",
        a.save.map(|s| s.0),
        tb.map(|t| t.save),
        base_name,
        None,
        show_threshold,
    )?;
    let invuln = rows.pick(
        "invuln",
        "--invuln",
        a.invuln.map(|s| s.0),
        tb.map(|t| t.invuln),
        base_name,
        Some(None),
        show_threshold,
    )?;
    let wounds = rows.pick(
        "wounds",
        "--wounds",
        a.wounds,
        tb.map(|t| t.wounds),
        base_name,
        None,
        u32::to_string,
    )?;
    let fnp = rows.pick(
        "fnp",
        "--fnp",
        a.fnp.map(|s| s.0),
        tb.map(|t| t.fnp),
        base_name,
        Some(None),
        show_threshold,
    )?;
    let target_keywords = rows.pick(
        "target_keywords",
        "--target-keywords",
        a.target_keywords.as_ref().map(|v| {
            v.iter()
                .map(|k| k.trim().to_string())
                .filter(|k| !k.is_empty())
                .collect()
        }),
        tb.map(|t| t.keywords.clone()),
        base_name,
        Some(Vec::new()),
        |k| show_list(k),
    )?;
    let target = Target {
        models,
        toughness,
        save,
        invuln,
        wounds,
        fnp,
        keywords: target_keywords,
    };

    let edition = rows.pick(
        "edition",
        "--edition",
        a.edition.clone(),
        None,
        "",
        Some(crate::edition::Edition::Tenth.as_str().to_string()),
        String::clone,
    )?;
    rows.flag("half_range", "--half-range", a.half_range, "no", "yes");
    rows.flag("stationary", "--stationary", a.stationary, "no", "yes");
    rows.flag("charged", "--charged", a.charged, "no", "yes");
    rows.flag("cover", "--cover", a.cover, "no", "yes");
    rows.flag("stealth", "--stealth", a.stealth, "no", "yes");
    rows.flag("visible", "--not-visible", a.not_visible, "yes", "no");
    rows.flag(
        "beyond_conversion",
        "--beyond-conversion",
        a.beyond_conversion,
        "no",
        "yes",
    );
    rows.flag("spotted", "--spotted", a.spotted, "no", "yes");
    let conditions = Conditions {
        rules: match edition.as_str() {
            "9e" => Rules::Ninth,
            "11e" => Rules::Eleventh,
            _ => Rules::Tenth,
        },
        half_range: a.half_range,
        stationary: a.stationary,
        charged: a.charged,
        cover: a.cover,
        stealth: a.stealth,
        target_visible: !a.not_visible,
        beyond_conversion: a.beyond_conversion,
        spotted: a.spotted,
        modifiers: {
            let mut grants = Vec::new();
            if let Some(ds) = attacker {
                grants.extend(grants::attacker_grants(ds, &target));
            }
            if let Some(ds) = defender {
                grants.extend(grants::defender_grants(ds, &weapon, &target));
            }
            modifiers(a, &mut rows, &grants)?
        },
    };
    match a.monte_carlo {
        Some(n) => {
            rows.push("method", "monte carlo".into(), "from --monte-carlo".into());
            rows.push("trials", n.to_string(), "from --monte-carlo".into());
            rows.pick("seed", "--seed", a.seed, None, "", Some(0), u64::to_string)?;
        }
        None => rows.push("method", "exact".into(), "default".into()),
    }
    let sc = Scenario {
        attackers,
        weapon,
        target,
        conditions,
    };
    Ok((sc, rows))
}

/// The modifiers of the flags, else of the datasheets' abilities (`grants`), each recorded in
/// the scenario block with its source; a flag replaces what the abilities grant for its field.
fn modifiers(a: &Flags, rows: &mut Rows, grants: &[Grant]) -> anyhow::Result<Modifiers> {
    let granted = grants::modifiers(grants);
    // The abilities that grant a field, for the row's source.
    let by = |pick: fn(&Effect) -> bool| {
        let names: Vec<&str> = grants
            .iter()
            .filter(|g| pick(&g.effect))
            .map(|g| g.ability.as_str())
            .collect();
        format!("dataset ability {}", names.join(", "))
    };
    let show_reroll = |r: &Option<Reroll>| r.map_or("none".to_string(), |r| r.to_string());
    let signed = |n: &i32| format!("{n:+}");
    let some = |on: bool| on.then_some(());
    let rr_hits = by(|e| matches!(e, Effect::RerollHits(_)));
    let rr_wounds = by(|e| matches!(e, Effect::RerollWounds(_)));
    let hit = by(|e| matches!(e, Effect::HitModifier(_)));
    let wound = by(|e| matches!(e, Effect::WoundModifier(_)));
    let reduction = by(|e| matches!(e, Effect::DamageReduction(_)));
    let halve = by(|e| matches!(e, Effect::HalveDamage));
    let fnp = by(|e| matches!(e, Effect::FnpMortal(_)));
    Ok(Modifiers {
        reroll_hits: rows.pick(
            "reroll_hits",
            "--reroll-hits",
            a.reroll_hits.map(Some),
            some(granted.reroll_hits.is_some()).map(|_| granted.reroll_hits),
            &rr_hits,
            Some(None),
            show_reroll,
        )?,
        reroll_wounds: rows.pick(
            "reroll_wounds",
            "--reroll-wounds",
            a.reroll_wounds.map(Some),
            some(granted.reroll_wounds.is_some()).map(|_| granted.reroll_wounds),
            &rr_wounds,
            Some(None),
            show_reroll,
        )?,
        hit_modifier: rows.pick(
            "hit_modifier",
            "--hit-modifier",
            a.hit_modifier,
            some(granted.hit_modifier != 0).map(|_| granted.hit_modifier),
            &hit,
            Some(0),
            signed,
        )?,
        wound_modifier: rows.pick(
            "wound_modifier",
            "--wound-modifier",
            a.wound_modifier,
            some(granted.wound_modifier != 0).map(|_| granted.wound_modifier),
            &wound,
            Some(0),
            signed,
        )?,
        crit_hit: rows.pick(
            "crit_hit",
            "--crit-hit",
            a.crit_hit.map(|t| t.0),
            None,
            "",
            Some(None),
            show_crit,
        )?,
        crit_wound: rows.pick(
            "crit_wound",
            "--crit-wound",
            a.crit_wound.map(|t| t.0),
            None,
            "",
            Some(None),
            show_crit,
        )?,
        damage_reduction: rows.pick(
            "damage_reduction",
            "--damage-reduction",
            a.damage_reduction,
            some(granted.damage_reduction != 0).map(|_| granted.damage_reduction),
            &reduction,
            Some(0),
            u32::to_string,
        )?,
        halve_damage: rows.pick(
            "halve_damage",
            "--halve-damage",
            some(a.halve_damage).map(|_| true),
            some(granted.halve_damage).map(|_| true),
            &halve,
            Some(false),
            |h: &bool| if *h { "yes" } else { "no" }.to_string(),
        )?,
        fnp_mortal: rows.pick(
            "fnp_mortal",
            "--fnp-mortal",
            a.fnp_mortal.map(|t| t.0),
            some(granted.fnp_mortal.is_some()).map(|_| granted.fnp_mortal),
            &fnp,
            Some(None),
            show_threshold,
        )?,
    })
}

fn show_crit(t: &Option<u8>) -> String {
    t.map_or("6+".to_string(), |n| format!("{n}+"))
}

/// A progress bar over `trials` on stderr when it is a terminal (not in CI, not when piped).
fn progress_bar(trials: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() || std::env::var_os("CI").is_some() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(trials);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {bar:40} {pos}/{len} trials {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    Some(bar)
}

fn histogram(title: &str, d: &[f64]) {
    outln!("{title}:");
    let max = d.iter().cloned().fold(0.0, f64::max);
    for (v, &p) in d.iter().enumerate() {
        if p < 0.0005 {
            continue;
        }
        let bar = if max > 0.0 {
            (p / max * 40.0).round() as usize
        } else {
            0
        };
        outln!("  {v:>4}  {:>6.2}%  {}", p * 100.0, "#".repeat(bar));
    }
}

fn render(rows: &Rows, o: &Outcome) {
    outln!("scenario:");
    for r in &rows.0 {
        outln!("  {:<16} {:<12} ({})", r.field, r.value, r.source);
    }
    outln!("expected attacks:          {:.4}", o.expected_attacks);
    outln!("expected hits:             {:.4}", o.expected_hits);
    outln!("expected wounds:           {:.4}", o.expected_wounds);
    outln!("expected damage:           {:.4}", o.expected_damage);
    outln!(
        "expected models destroyed: {:.4}",
        o.expected_models_destroyed
    );
    if let Some(h) = o.expected_hazardous_mortal_wounds {
        outln!("expected HAZARDOUS mortal wounds on the attackers: {h:.4}");
    }
    for n in &o.notes {
        outln!("note: {n}");
    }
    histogram("damage", &o.damage_distribution);
    histogram("models destroyed", &o.models_destroyed_distribution);
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let args = *args.flags;
    let (sc, rows) = match scenario(&args) {
        Ok(sc) => sc,
        Err(e) => {
            errln!("error: {e:#}");
            return Ok(super::EXIT_USAGE);
        }
    };
    let result = match args.monte_carlo {
        Some(n) => {
            let bar = progress_bar(n);
            let tick = |done: u64| {
                if let Some(b) = &bar {
                    b.set_position(done);
                }
            };
            let r = simulate::monte_carlo_with_progress(&sc, n, args.seed.unwrap_or(0), &tick);
            if let Some(b) = bar {
                b.finish_and_clear();
            }
            r
        }
        None => simulate::exact(&sc),
    };
    let o = match result {
        Ok(o) => o,
        Err(e) => {
            errln!("error: {e}");
            return Ok(super::EXIT_USAGE);
        }
    };
    if args.json {
        let mut doc = serde_json::Map::new();
        doc.insert("scenario".into(), rows.to_json());
        if let serde_json::Value::Object(m) = o.to_json() {
            doc.extend(m);
        }
        outln_raw!(
            "{}",
            serde_json::to_string_pretty(&serde_json::Value::Object(doc))?
        );
    } else {
        render(&rows, &o);
    }
    Ok(super::EXIT_OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_and_distance() {
        assert_eq!(
            fold("Betraying Shades - witchfire"),
            fold("Betraying  Shades – Witchfire")
        );
        assert_eq!(fold("Be’lakor"), fold("be'lakor"));
        assert_eq!(fold("a-b"), fold("a – b"));
        assert!(distance("Bolt rifle", "Bolt rifles") < distance("Bolt rifle", "Heavy flamer"));
    }

    #[test]
    fn ranges() {
        assert!(parse_skill("9+").unwrap_err().contains("2+ to 6+"));
        assert_eq!(parse_skill("N/A"), Ok(Skill(None)));
        assert_eq!(parse_save("none"), Ok(Threshold(None)));
        assert_eq!(parse_save("-"), Ok(Threshold(None)));
        assert_eq!(parse_save("3+"), Ok(Threshold(Some(3))));
        assert!(parse_models("-1").unwrap_err().contains("1 to 200"));
        assert!(parse_strength("0").unwrap_err().contains("1 to 100"));
        assert!(parse_damage("0").unwrap_err().contains("at least 1"));
        assert!(parse_damage("D6").is_ok());
        assert_eq!(parse_ap("−2"), Ok(-2));
        assert!(parse_ap("1").unwrap_err().contains("-6 to 0"));
        assert!(parse_trials("10000001").unwrap_err().contains("10,000,000"));
    }
}
