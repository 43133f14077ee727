//! `cogitator simulate`: one weapon profile against one target, exact or Monte Carlo.
//!
//! Owns the flags, reading the dataset files named on the command line, and rendering (JSON
//! or a text histogram). The rules and arithmetic live in `cogitator::simulate`; nothing here
//! decides what a keyword does.

use crate::model::Datasheet;
use crate::simulate::profile::{
    parse_ap, parse_positive, parse_range, parse_save, parse_skill, target_from_datasheet,
    weapon_from_profile,
};
use crate::simulate::{self, Conditions, Dice, Keyword, Outcome, Rules, Scenario, Target, Weapon};
use crate::validate;
use anyhow::{anyhow, bail, Context};
use std::path::PathBuf;

/// Arguments of `cogitator simulate` (boxed: the flag set is large).
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    #[command(flatten)]
    pub flags: Box<Flags>,
}

/// The flags of `cogitator simulate`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Flags {
    /// Attacks characteristic: `3`, `D6`, `D6+1`, `2D6`.
    #[arg(long)]
    pub attacks: Option<String>,
    /// BS/WS: `3+`, or `N/A` (TORRENT only).
    #[arg(long)]
    pub skill: Option<String>,
    /// Strength characteristic.
    #[arg(long)]
    pub strength: Option<String>,
    /// AP as printed: `0`, `-2`.
    #[arg(long, allow_hyphen_values = true)]
    pub ap: Option<String>,
    /// Damage characteristic: `1`, `D3`, `D6+1`.
    #[arg(long)]
    pub damage: Option<String>,
    /// Comma-separated weapon keywords: `"SUSTAINED HITS 1,LETHAL HITS"`.
    #[arg(long)]
    pub keywords: Option<String>,
    /// Number of attacking models.
    #[arg(long, default_value_t = 1)]
    pub attackers: u32,
    /// Weapon range as printed (`24"`), informational.
    #[arg(long)]
    pub range: Option<String>,
    /// The weapon is a melee weapon (no STEALTH, cover, HEAVY or INDIRECT FIRE).
    #[arg(long)]
    pub melee: bool,

    /// Target toughness.
    #[arg(long)]
    pub toughness: Option<String>,
    /// Armour save: `3+`, or `-` for none.
    #[arg(long, allow_hyphen_values = true)]
    pub save: Option<String>,
    /// Target invulnerable save: `4+`.
    #[arg(long)]
    pub invuln: Option<String>,
    /// Feel No Pain: `5+`.
    #[arg(long)]
    pub fnp: Option<String>,
    /// Wounds characteristic of each target model.
    #[arg(long)]
    pub wounds: Option<String>,
    /// Number of target models [default: 1].
    #[arg(long)]
    pub models: Option<u32>,
    /// Comma-separated target keywords (for ANTI-x).
    #[arg(long, value_delimiter = ',')]
    pub target_keywords: Vec<String>,

    /// The target is within half range (RAPID FIRE, MELTA).
    #[arg(long)]
    pub half_range: bool,
    /// The attacking unit remained stationary (HEAVY).
    #[arg(long)]
    pub stationary: bool,
    /// The bearer made a Charge move this turn (LANCE).
    #[arg(long)]
    pub charged: bool,
    /// The target has the Benefit of Cover.
    #[arg(long)]
    pub cover: bool,
    /// The target has STEALTH.
    #[arg(long)]
    pub stealth: bool,
    /// The target is not visible (INDIRECT FIRE).
    #[arg(long)]
    pub not_visible: bool,
    /// Rules edition.
    #[arg(long, default_value = "10e", value_parser = ["10e", "9e"])]
    pub edition: String,

    /// Dataset directory (with `datasheets.json`) to take the weapon (and target) from.
    #[arg(long)]
    pub dataset: Option<PathBuf>,
    /// Datasheet id of the attacker (with --dataset).
    #[arg(long)]
    pub datasheet: Option<String>,
    /// Weapon name on that datasheet (with --dataset).
    #[arg(long)]
    pub weapon: Option<String>,
    /// Reference target name (targets.yaml) or datasheet id (with --dataset).
    #[arg(long)]
    pub target: Option<String>,
    /// Reference target panel to use instead of the embedded one.
    #[arg(long)]
    pub targets: Option<PathBuf>,

    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Run the Monte Carlo engine with this many trials instead of the exact one.
    #[arg(long, value_name = "N")]
    pub monte_carlo: Option<u64>,
    /// Seed of the Monte Carlo generator (rand_pcg::Pcg64).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

fn need<'a>(v: &'a Option<String>, flag: &str) -> anyhow::Result<&'a str> {
    v.as_deref().ok_or_else(|| anyhow!("missing --{flag}"))
}

fn weapon_from_flags(a: &Flags) -> anyhow::Result<Weapon> {
    let mut keywords = Vec::new();
    for k in a
        .keywords
        .iter()
        .flat_map(|s| s.split(','))
        .map(str::trim)
        .filter(|k| !k.is_empty())
    {
        keywords.push(Keyword::parse(k)?);
    }
    let melee = a.melee || matches!(a.range.as_deref().map(parse_range), Some(Ok(None)));
    if let Some(r) = &a.range {
        parse_range(r)?;
    }
    Ok(Weapon {
        name: "weapon".into(),
        melee,
        attacks: Dice::parse(need(&a.attacks, "attacks")?).context("--attacks")?,
        skill: parse_skill(need(&a.skill, "skill")?)?,
        strength: parse_positive("strength", need(&a.strength, "strength")?)?,
        ap: parse_ap(a.ap.as_deref().unwrap_or("0"))?,
        damage: Dice::parse(need(&a.damage, "damage")?).context("--damage")?,
        keywords,
    })
}

fn target_from_flags(a: &Flags) -> anyhow::Result<Target> {
    let threshold = |name: &'static str, v: &Option<String>| -> anyhow::Result<Option<u8>> {
        v.as_deref()
            .map(|s| parse_save(name, s))
            .transpose()
            .map(Option::flatten)
            .map_err(Into::into)
    };
    Ok(Target {
        models: a.models.unwrap_or(1),
        toughness: parse_positive("toughness", need(&a.toughness, "toughness")?)?,
        save: threshold("save", &a.save)?,
        invuln: threshold("invuln", &a.invuln)?,
        wounds: parse_positive("wounds", need(&a.wounds, "wounds")?)?,
        fnp: threshold("fnp", &a.fnp)?,
        keywords: a
            .target_keywords
            .iter()
            .map(|k| k.trim().to_string())
            .collect(),
    })
}

fn load_datasheets(dir: &std::path::Path) -> anyhow::Result<Vec<Datasheet>> {
    let path = dir.join("datasheets.json");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("cannot parse {}", path.display()))
}

fn scenario(a: &Flags) -> anyhow::Result<Scenario> {
    let conditions = Conditions {
        rules: if a.edition == "9e" {
            Rules::Ninth
        } else {
            Rules::Tenth
        },
        half_range: a.half_range,
        stationary: a.stationary,
        charged: a.charged,
        cover: a.cover,
        stealth: a.stealth,
        target_visible: !a.not_visible,
    };
    let (weapon, target) = match &a.dataset {
        None => (weapon_from_flags(a)?, target_from_flags(a)?),
        Some(dir) => {
            let sheets = load_datasheets(dir)?;
            let id = need(&a.datasheet, "datasheet")?;
            let ds = sheets
                .iter()
                .find(|d| d.id == id)
                .ok_or_else(|| anyhow!("no datasheet {id:?} in the dataset"))?;
            let name = need(&a.weapon, "weapon")?;
            let wp = ds
                .weapons
                .iter()
                .find(|w| w.name.eq_ignore_ascii_case(name))
                .ok_or_else(|| anyhow!("datasheet {id} has no weapon {name:?}"))?;
            let (weapon, unknown) =
                weapon_from_profile(wp).with_context(|| format!("weapon {name:?}"))?;
            for k in unknown {
                eprintln!("warning[V303]: unknown weapon keyword {k:?} ignored");
            }
            let target = match &a.target {
                None => target_from_flags(a)?,
                Some(t) => {
                    let panel = match &a.targets {
                        Some(p) => validate::load_panel(&std::fs::read_to_string(p)?)
                            .map_err(|e| anyhow!("{}:{e}", p.display()))?,
                        None => validate::default_panel(),
                    };
                    if let Some(rt) = panel.iter().find(|r| r.name.eq_ignore_ascii_case(t)) {
                        rt.to_target()
                            .map_err(|e| anyhow!("reference target {t:?}: {e}"))?
                    } else if let Some(tds) = sheets.iter().find(|d| d.id == *t) {
                        target_from_datasheet(tds)
                            .with_context(|| format!("target datasheet {t}"))?
                    } else {
                        bail!("--target {t:?} is neither a reference target nor a datasheet id");
                    }
                }
            };
            (weapon, target)
        }
    };
    Ok(Scenario {
        attackers: a.attackers,
        weapon,
        target,
        conditions,
    })
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

fn render(o: &Outcome) {
    let method = match o.method {
        simulate::Method::Exact => "exact",
        simulate::Method::MonteCarlo => "monte carlo",
    };
    outln!("method:                    {method}");
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
    let sc = match scenario(&args) {
        Ok(sc) => sc,
        Err(e) => {
            eprintln!("error: {e:#}");
            return Ok(super::EXIT_USAGE);
        }
    };
    let result = match args.monte_carlo {
        Some(n) => simulate::monte_carlo(&sc, n, args.seed),
        None => simulate::exact(&sc),
    };
    let o = match result {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(super::EXIT_USAGE);
        }
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&o.to_json())?);
    } else {
        render(&o);
    }
    Ok(super::EXIT_OK)
}
