//! The embedded dice engine: exact damage distributions and a Monte Carlo cross-check for one
//! weapon profile fired by N models at one target unit, under 10th (or 9th) edition rules.
//!
//! Owns the rules model ([`Scenario`] → [`Outcome`]), the dice grammar ([`dice`]), weapon
//! keywords ([`keyword`]) and the conversion of dataset records into scenarios
//! ([`profile`]). It must not do I/O, print, or emit diagnostics: callers (`validate`, the
//! CLI) turn [`SimError`]s into diagnostics or messages. See `docs/simulator.md`.

pub mod dice;
mod exact;
pub mod grants;
pub mod keyword;
mod monte_carlo;
mod plan;
pub mod profile;

pub use dice::{Dice, DiceError};
pub use keyword::{Keyword, KeywordError};

use serde::Serialize;

/// Which edition's rules to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rules {
    #[default]
    Tenth,
    Ninth,
    /// 11th edition: the benefit of cover worsens BS, CLEAVE, BLAST X, indirect shooting's
    /// unmodified 1–5 (`docs/simulator.md` cites each section).
    Eleventh,
}

/// The attacking weapon profile, already parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Weapon {
    pub name: String,
    /// Melee weapons ignore STEALTH, cover, HEAVY and INDIRECT FIRE.
    pub melee: bool,
    pub attacks: Dice,
    /// BS/WS threshold (2..=6); `None` for `N/A` (only valid with TORRENT).
    pub skill: Option<u8>,
    pub strength: u32,
    /// AP as printed: `0`, `-1`, `-2`, … (never positive).
    pub ap: i32,
    pub damage: Dice,
    pub keywords: Vec<Keyword>,
}

/// The target unit: M models with identical profiles.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub models: u32,
    pub toughness: u32,
    /// Armour save threshold (2..=6); `None` for no armour save.
    pub save: Option<u8>,
    pub invuln: Option<u8>,
    pub wounds: u32,
    pub fnp: Option<u8>,
    /// Unit keywords (for ANTI-), compared case-insensitively.
    pub keywords: Vec<String>,
}

/// The situation the attack is made in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conditions {
    pub rules: Rules,
    pub half_range: bool,
    pub stationary: bool,
    pub charged: bool,
    /// The target has the Benefit of Cover.
    pub cover: bool,
    /// The target has STEALTH.
    pub stealth: bool,
    pub target_visible: bool,
    /// The target is beyond the distance the weapon's CONVERSION rule names (the rule's text
    /// says 12", 18" or 24"; the keyword alone does not).
    pub beyond_conversion: bool,
    /// 11th edition indirect shooting: the target is visible to one or more friendly units.
    pub spotted: bool,
    /// Re-rolls, roll modifiers, critical thresholds and damage modifiers in force.
    pub modifiers: Modifiers,
}

/// Which rolls a re-roll lets the player roll again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reroll {
    /// Unmodified rolls of 1.
    Ones,
    /// Every roll that fails after modifiers.
    Failed,
}

impl std::fmt::Display for Reroll {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Reroll::Ones => "ones",
            Reroll::Failed => "failed",
        })
    }
}

/// The modifiers a damage calculator's user sets by hand (or a datasheet grants): re-rolls,
/// hit and wound roll modifiers, critical thresholds, damage reduction and halving, and a
/// Feel No Pain against mortal wounds only. The default changes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Modifiers {
    /// Re-roll the hit roll (before modifiers; one re-roll per roll).
    pub reroll_hits: Option<Reroll>,
    /// Re-roll the wound roll (TWIN-LINKED is `Failed`).
    pub reroll_wounds: Option<Reroll>,
    /// Added to the hit roll's other modifiers (HEAVY, STEALTH, …); the sum is capped at ±1.
    pub hit_modifier: i32,
    /// Added to the wound roll's other modifiers (LANCE); the sum is capped at ±1.
    pub wound_modifier: i32,
    /// An unmodified hit roll of this or more is a Critical Hit (and succeeds); `None`: 6.
    pub crit_hit: Option<u8>,
    /// An unmodified wound roll of this or more is a Critical Wound (and succeeds); `None`: 6
    /// (ANTI's threshold when lower).
    pub crit_wound: Option<u8>,
    /// Each attack's damage (after the roll and MELTA, after halving) minus this, at least 1.
    pub damage_reduction: u32,
    /// Each attack's damage halved, rounding up (before `damage_reduction`).
    pub halve_damage: bool,
    /// The target's Feel No Pain against mortal wounds only (Devastating Wounds included).
    pub fnp_mortal: Option<u8>,
}

impl Default for Conditions {
    fn default() -> Self {
        Conditions {
            rules: Rules::Tenth,
            half_range: false,
            stationary: false,
            charged: false,
            cover: false,
            stealth: false,
            target_visible: true,
            beyond_conversion: false,
            spotted: false,
            modifiers: Modifiers::default(),
        }
    }
}

/// One volley: `attackers` models each firing `weapon` once at `target`.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub attackers: u32,
    pub weapon: Weapon,
    pub target: Target,
    pub conditions: Conditions,
}

/// Why a scenario cannot be simulated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    #[error("INDIRECT FIRE cannot be combined with TORRENT against a target that is not visible")]
    IndirectTorrent,
    #[error("skill N/A needs the TORRENT keyword")]
    SkillNotApplicable,
    #[error(
        "--monte-carlo {trials} × up to {per_trial} attacks a trial is over the limit of {limit} \
         attacks rolled in one run; ask for at most {most} trials, or run without --monte-carlo \
         for the exact engine"
    )]
    TooMuchWork {
        trials: u64,
        per_trial: u64,
        limit: u64,
        most: u64,
    },
    #[error("invalid {what}: {value} ({expected})")]
    Invalid {
        what: &'static str,
        value: String,
        expected: &'static str,
    },
}

/// Exact or sampled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    Exact,
    MonteCarlo,
}

/// The result of a simulation. Distributions are dense: element `v` is P(value = v), for
/// damage `0..=models*wounds` and models destroyed `0..=models`.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub method: Method,
    pub expected_attacks: f64,
    pub expected_hits: f64,
    pub expected_wounds: f64,
    pub expected_damage: f64,
    pub expected_models_destroyed: f64,
    pub damage_distribution: Vec<f64>,
    pub models_destroyed_distribution: Vec<f64>,
    /// Keywords with no numeric effect in this scenario, and why.
    pub notes: Vec<String>,
    /// Expected mortal wounds the attacking unit suffers from HAZARDOUS (if the weapon has it).
    pub expected_hazardous_mortal_wounds: Option<f64>,
}

#[derive(Serialize)]
struct Point {
    value: usize,
    probability: f64,
}

#[derive(Serialize)]
struct OutcomeJson<'a> {
    method: Method,
    expected_attacks: f64,
    expected_hits: f64,
    expected_wounds: f64,
    expected_damage: f64,
    expected_models_destroyed: f64,
    damage_distribution: Vec<Point>,
    models_destroyed_distribution: Vec<Point>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    expected_hazardous_mortal_wounds: Option<f64>,
}

fn points(d: &[f64]) -> Vec<Point> {
    d.iter()
        .enumerate()
        .map(|(value, &probability)| Point { value, probability })
        .collect()
}

impl Outcome {
    /// The `--json` document (see `docs/simulator.md`).
    pub fn to_json(&self) -> serde_json::Value {
        let j = OutcomeJson {
            method: self.method,
            expected_attacks: self.expected_attacks,
            expected_hits: self.expected_hits,
            expected_wounds: self.expected_wounds,
            expected_damage: self.expected_damage,
            expected_models_destroyed: self.expected_models_destroyed,
            damage_distribution: points(&self.damage_distribution),
            models_destroyed_distribution: points(&self.models_destroyed_distribution),
            notes: &self.notes,
            expected_hazardous_mortal_wounds: self.expected_hazardous_mortal_wounds,
        };
        serde_json::to_value(j).unwrap_or(serde_json::Value::Null)
    }
}

/// Exact distributions (f64 arithmetic, no sampling).
pub fn exact(scenario: &Scenario) -> Result<Outcome, SimError> {
    let plan = plan::Plan::new(scenario)?;
    Ok(exact::run(&plan))
}

/// One volley of `weapon` fired by one model at each of `targets` in turn, under `conditions`
/// ([`exact`]) with the modifiers the `attacker` datasheet's abilities grant against each
/// target ([`grants::attacker_grants`]): the one expected-damage run of `validate`'s table and
/// `cogitator diff`'s weights.
pub fn volleys<'a>(
    weapon: &'a Weapon,
    targets: impl IntoIterator<Item = &'a Target> + 'a,
    conditions: Conditions,
    attacker: Option<&'a crate::model::Datasheet>,
) -> impl Iterator<Item = Result<Outcome, SimError>> + 'a {
    targets.into_iter().map(move |target| {
        let mut conditions = conditions;
        if let Some(ds) = attacker {
            conditions.modifiers = grants::modifiers(&grants::attacker_grants(ds, target));
        }
        exact(&Scenario {
            attackers: 1,
            weapon: weapon.clone(),
            target: target.clone(),
            conditions,
        })
    })
}

/// The same rules by sampling `trials` volleys with `rand_pcg::Pcg64` seeded from `seed`.
pub fn monte_carlo(scenario: &Scenario, trials: u64, seed: u64) -> Result<Outcome, SimError> {
    monte_carlo_with_progress(scenario, trials, seed, &|_| {})
}

/// [`monte_carlo`], calling `progress` with the trials done so far every few thousand trials
/// (the CLI's progress bar); the result does not depend on it.
pub fn monte_carlo_with_progress(
    scenario: &Scenario,
    trials: u64,
    seed: u64,
    progress: &dyn Fn(u64),
) -> Result<Outcome, SimError> {
    let plan = plan::Plan::new(scenario)?;
    if trials == 0 {
        return Err(SimError::Invalid {
            what: "trial count",
            value: "0".into(),
            expected: "at least 1",
        });
    }
    // Capped by work, not by trials: the attacks a run may roll at most.
    let per_trial = u64::from(plan.attackers)
        .saturating_mul(plan.attacks.max_attacks())
        .max(1);
    let work = trials.saturating_mul(per_trial);
    if work > MAX_MONTE_CARLO_WORK {
        return Err(SimError::TooMuchWork {
            trials,
            per_trial,
            limit: MAX_MONTE_CARLO_WORK,
            most: MAX_MONTE_CARLO_WORK / per_trial,
        });
    }
    Ok(monte_carlo::run(&plan, trials, seed, progress))
}

/// The most attacks one Monte Carlo run may roll (trials × the most attacks of one trial):
/// about a minute of work on a release build, whatever the trial count asked for.
pub const MAX_MONTE_CARLO_WORK: u64 = 2_000_000_000;

/// Mean of a dense distribution.
pub(crate) fn mean_of(d: &[f64]) -> f64 {
    d.iter().enumerate().map(|(v, p)| v as f64 * p).sum()
}
