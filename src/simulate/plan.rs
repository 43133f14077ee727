//! Resolves a [`Scenario`] into the per-die rules both engines share: what each face of the
//! hit, wound and save dice means, how many attacks each model makes, and the damage dice.
//!
//! Owns every rules decision (modifier caps, criticals, ANTI thresholds, cover, edition
//! differences) so the exact and Monte Carlo engines cannot disagree on the rules. It must
//! not compute distributions over a whole volley.

use super::{Dice, Keyword, Reroll, Rules, Scenario, SimError};

pub(crate) const MAX_ATTACKERS: u32 = 200;
pub(crate) const MAX_MODELS: u32 = 200;
pub(crate) const MAX_WOUNDS: u32 = 100;
pub(crate) const MAX_STRENGTH: u32 = 100;
/// Most attacks one volley may make (keeps the exact engine's O(attacks²) work bounded).
pub(crate) const MAX_VOLLEY_ATTACKS: u64 = 5_000;
/// Most hits one volley may roll to wound (attacks × (1 + SUSTAINED HITS maximum)).
pub(crate) const MAX_VOLLEY_HITS: u64 = 20_000;

/// Result of one hit die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hit {
    Miss,
    Normal,
    Critical,
}

/// Result of one wound die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wound {
    Fail,
    Normal,
    Critical,
}

/// How many attacks one model makes with the weapon.
#[derive(Debug, Clone)]
pub(crate) struct AttackRule {
    pub base: Dice,
    /// 10e: extra attacks added (RAPID FIRE X at half range).
    pub extra: Option<Dice>,
    /// 10e BLAST: flat bonus.
    pub blast_bonus: u32,
    /// 9e BLAST: minimum result of a random attacks roll (3 against 6–10 models).
    pub min_roll: u32,
    /// 9e BLAST against 11+ models: random attacks take their maximum.
    pub max_roll: bool,
    /// 9e RAPID FIRE at half range.
    pub double: bool,
}

impl AttackRule {
    /// Attacks of one model given the raw roll of `base`.
    pub fn attacks_for_roll(&self, roll: u32, extra: u32) -> u32 {
        let mut a = roll;
        if !self.base.is_constant() {
            if self.max_roll {
                a = self.base.max();
            }
            a = a.max(self.min_roll);
        }
        if self.double {
            a *= 2;
        }
        a + extra + self.blast_bonus
    }

    /// The most attacks one model can make (every die at its highest).
    pub fn max_attacks(&self) -> u64 {
        let base = u64::from(self.base.max().max(self.min_roll));
        let base = if self.double { base * 2 } else { base };
        base + u64::from(self.extra.map_or(0, |d| d.max())) + u64::from(self.blast_bonus)
    }

    /// Exact distribution of one model's attacks.
    pub fn distribution(&self) -> Vec<f64> {
        let base = self.base.distribution();
        let extra = self
            .extra
            .map(|d| d.distribution())
            .unwrap_or_else(|| vec![1.0]);
        let mut out: Vec<f64> = Vec::new();
        for (roll, &p) in base.iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            for (x, &q) in extra.iter().enumerate() {
                if q == 0.0 {
                    continue;
                }
                let a = self.attacks_for_roll(roll as u32, x as u32) as usize;
                if out.len() <= a {
                    out.resize(a + 1, 0.0);
                }
                out[a] += p * q;
            }
        }
        out
    }
}

/// Every rules decision for one scenario.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub attackers: u32,
    pub attacks: AttackRule,
    /// TORRENT: no hit roll.
    pub auto_hit: bool,
    pub skill: u8,
    pub hit_mod: i32,
    /// INDIRECT FIRE against a non-visible target: unmodified 1..=this always fail.
    pub hit_fail_upto: u8,
    pub critical_hits: bool,
    /// Unmodified successful hit rolls at or above this are Critical Hits (6, or 4 with
    /// CONVERSION beyond its distance).
    pub critical_hit_at: u8,
    /// Unmodified hit rolls at or above this are Critical Hits and succeed whatever the
    /// modifiers (`--crit-hit`; 7 = none).
    pub critical_hit_always: u8,
    /// Which hit rolls are rolled again (before modifiers, once).
    pub reroll_hits: Option<Reroll>,
    pub lethal: bool,
    pub sustained: Option<Dice>,
    pub wound_need: u8,
    pub wound_mod: i32,
    /// Unmodified wound rolls at or above this are Critical Wounds (7 = never).
    pub critical_wound_at: u8,
    /// Which wound rolls are rolled again (TWIN-LINKED: the failed ones).
    pub reroll_wounds: Option<Reroll>,
    pub devastating: bool,
    /// Armour save: (threshold, net modifier).
    pub armour: Option<(u8, i32)>,
    pub invuln: Option<u8>,
    pub damage: Dice,
    pub melta: Option<Dice>,
    pub fnp: Option<u8>,
    /// Feel No Pain against mortal wounds only (Devastating Wounds).
    pub fnp_mortal: Option<u8>,
    /// Damage halved (rounding up), then reduced by this (at least 1), per attack.
    pub halve_damage: bool,
    pub damage_reduction: u32,
    pub models: u32,
    pub wounds: u32,
    pub notes: Vec<String>,
    /// HAZARDOUS: expected mortal wounds per attacking model.
    pub hazardous: Option<f64>,
}

fn invalid(what: &'static str, value: impl ToString, expected: &'static str) -> SimError {
    SimError::Invalid {
        what,
        value: value.to_string(),
        expected,
    }
}

fn check_threshold(what: &'static str, v: Option<u8>) -> Result<(), SimError> {
    match v {
        Some(t) if !(2..=6).contains(&t) => Err(invalid(what, format!("{t}+"), "2+ to 6+")),
        _ => Ok(()),
    }
}

/// Wound roll needed for strength `s` against toughness `t` (10e and 9e share the table).
pub(crate) fn wound_threshold(s: u32, t: u32) -> u8 {
    if s >= 2 * t {
        2
    } else if s > t {
        3
    } else if s == t {
        4
    } else if 2 * s <= t {
        6
    } else {
        5
    }
}

impl Plan {
    pub fn new(sc: &Scenario) -> Result<Plan, SimError> {
        let w = &sc.weapon;
        let t = &sc.target;
        let c = &sc.conditions;
        // 10th and 11th edition share criticals and the keywords' 10th-edition effects; 11th
        // changes cover, STEALTH, indirect shooting, PSYCHIC, HAZARDOUS and adds CLEAVE/BLAST X.
        let tenth = c.rules != Rules::Ninth;
        let eleventh = c.rules == Rules::Eleventh;
        if sc.attackers == 0 || sc.attackers > MAX_ATTACKERS {
            return Err(invalid("attacking model count", sc.attackers, "1 to 200"));
        }
        if t.models == 0 || t.models > MAX_MODELS {
            return Err(invalid("target model count", t.models, "1 to 200"));
        }
        if t.wounds == 0 || t.wounds > MAX_WOUNDS {
            return Err(invalid("wounds characteristic", t.wounds, "1 to 100"));
        }
        if t.toughness == 0 || t.toughness > MAX_STRENGTH {
            return Err(invalid("toughness", t.toughness, "1 to 100"));
        }
        if w.strength == 0 || w.strength > MAX_STRENGTH {
            return Err(invalid("strength", w.strength, "1 to 100"));
        }
        if w.ap > 0 || w.ap < -6 {
            return Err(invalid("AP", w.ap, "0 to -6"));
        }
        check_threshold("skill", w.skill)?;
        check_threshold("save", t.save)?;
        check_threshold("invulnerable save", t.invuln)?;
        check_threshold("Feel No Pain", t.fnp)?;
        let m = &c.modifiers;
        check_threshold("Feel No Pain against mortal wounds", m.fnp_mortal)?;
        check_threshold("critical hit threshold", m.crit_hit)?;
        check_threshold("critical wound threshold", m.crit_wound)?;

        let has = |k: &Keyword| w.keywords.contains(k);
        let ranged = !w.melee;
        let torrent = has(&Keyword::Torrent);
        let indirect = ranged && has(&Keyword::IndirectFire) && !c.target_visible;
        if torrent && indirect {
            return Err(SimError::IndirectTorrent);
        }
        let skill = match (w.skill, torrent) {
            (Some(s), _) => s,
            (None, true) => 2,
            (None, false) => return Err(SimError::SkillNotApplicable),
        };
        let mut notes = Vec::new();
        let mut note = |k: &Keyword, why: &str| notes.push(format!("{k}: {why}"));

        // Attacks per model.
        let models_in_target = t.models;
        let mut attacks = AttackRule {
            base: w.attacks,
            extra: None,
            blast_bonus: 0,
            min_roll: 0,
            max_roll: false,
            double: false,
        };
        let mut sustained = None;
        let mut melta = None;
        let mut lethal = false;
        let mut devastating = false;
        let mut anti_at = 7u8;
        let mut hit_mod = m.hit_modifier;
        let mut critical_hit_at = 6u8;
        let mut wound_mod = m.wound_modifier;
        let mut hazardous = false;
        let mut ignores_cover = false;
        let mut reroll_wounds = m.reroll_wounds;
        let mut psychic = false;
        for k in &w.keywords {
            if !tenth
                && matches!(
                    k,
                    Keyword::Heavy
                        | Keyword::Melta(_)
                        | Keyword::Lance
                        | Keyword::TwinLinked
                        | Keyword::IndirectFire
                        | Keyword::Hazardous
                )
            {
                note(k, "9e: applied with its 10th edition effect (assumption)");
            }
            match k {
                Keyword::RapidFire(x) => {
                    if !c.half_range {
                        note(k, "no effect: target not within half range");
                    } else if tenth {
                        attacks.extra = Some(*x);
                    } else {
                        attacks.double = true;
                    }
                }
                Keyword::Cleave(x) => {
                    // 11e 24.06: the scenario has one target, so its attacks all select it.
                    if !eleventh {
                        note(k, "no effect: an 11th-edition ability");
                    } else {
                        attacks.blast_bonus += x * (models_in_target / 5);
                        if models_in_target < 5 {
                            note(k, "no effect: fewer than 5 models in the target");
                        }
                    }
                }
                Keyword::Blast(x) => {
                    if tenth {
                        attacks.blast_bonus += x * (models_in_target / 5);
                        if attacks.blast_bonus == 0 {
                            note(k, "no effect: fewer than 5 models in the target");
                        }
                    } else if w.attacks.is_constant() {
                        note(k, "no effect in 9e: the weapon's Attacks are not random");
                    } else if models_in_target >= 11 {
                        attacks.max_roll = true;
                    } else if models_in_target >= 6 {
                        attacks.min_roll = 3;
                    } else {
                        note(k, "no effect in 9e: fewer than 6 models in the target");
                    }
                }
                Keyword::Torrent => {}
                Keyword::Heavy => {
                    if ranged && c.stationary {
                        hit_mod += 1;
                    } else {
                        note(k, "no effect: the attacking unit did not remain stationary");
                    }
                }
                Keyword::LethalHits
                | Keyword::SustainedHits(_)
                | Keyword::DevastatingWounds
                | Keyword::Anti { .. }
                    if !tenth =>
                {
                    note(k, "no effect in 9e");
                }
                Keyword::LethalHits => {
                    if torrent {
                        note(
                            k,
                            "no effect: TORRENT makes no hit roll, so no Critical Hits",
                        );
                    }
                    lethal = true;
                }
                Keyword::SustainedHits(x) => {
                    if torrent {
                        note(
                            k,
                            "no effect: TORRENT makes no hit roll, so no Critical Hits",
                        );
                    }
                    sustained = Some(*x);
                }
                Keyword::DevastatingWounds => devastating = true,
                Keyword::Anti { keyword, threshold } => {
                    if t.keywords
                        .iter()
                        .any(|tk| tk.trim().eq_ignore_ascii_case(keyword))
                    {
                        anti_at = anti_at.min(*threshold);
                    } else {
                        note(k, "no effect: the target lacks the keyword");
                    }
                }
                Keyword::TwinLinked => reroll_wounds = reroll_wounds.max(Some(Reroll::Failed)),
                Keyword::Melta(x) => {
                    if c.half_range {
                        melta = Some(*x);
                    } else {
                        note(k, "no effect: target not within half range");
                    }
                }
                Keyword::Lance => {
                    if c.charged {
                        wound_mod += 1;
                    } else {
                        note(k, "no effect: the bearer did not charge");
                    }
                }
                Keyword::IgnoresCover => ignores_cover = true,
                Keyword::IndirectFire => {
                    if !indirect {
                        note(k, "no effect: the target is visible");
                    }
                }
                Keyword::Hazardous => {
                    hazardous = true;
                    if eleventh {
                        note(k, "11e hazard rolls: 1 mortal wound each failed roll (1-2); 3 if every model of the unit is a MONSTER or VEHICLE, not counted here");
                    }
                }
                Keyword::Conversion => {
                    if !tenth {
                        note(k, "no effect in 9e");
                    } else if torrent {
                        note(
                            k,
                            "no effect: TORRENT makes no hit roll, so no Critical Hits",
                        );
                    } else if !ranged || !c.beyond_conversion {
                        note(k, "no effect: target not beyond the rule's distance");
                    } else {
                        critical_hit_at = 4;
                    }
                }
                Keyword::Assault | Keyword::Pistol | Keyword::CloseQuarters => {
                    note(k, "no numeric effect (movement/shooting permission only)")
                }
                Keyword::Precision => note(
                    k,
                    "no numeric effect (allocation to CHARACTER models not modelled)",
                ),
                Keyword::Psychic if eleventh => psychic = true,
                Keyword::Psychic => note(k, "no numeric effect"),
                Keyword::OneShot => note(k, "no effect on a single volley"),
                Keyword::ExtraAttacks => note(k, "no numeric effect on this weapon alone"),
            }
        }
        // 10e: STEALTH and indirect fire are -1 to hit; 11e: each gives the benefit of cover
        // (13.08, 24.33, 10.07), which worsens BS instead.
        if ranged && c.stealth && !eleventh {
            hit_mod -= 1;
        }
        if indirect && !eleventh {
            hit_mod -= 1;
        }
        let cover = ranged && (c.cover || indirect || (eleventh && c.stealth)) && !ignores_cover;
        let mut skill = skill;
        let mut reroll_hits = if torrent { None } else { m.reroll_hits };
        if eleventh {
            if psychic && (hit_mod < 0 || cover) {
                notes.push(
                    "PSYCHIC: the modifiers that worsen the attack's BS/WS and hit roll are ignored"
                        .into(),
                );
                hit_mod = hit_mod.max(0);
            } else if cover && skill < 6 {
                skill += 1;
            }
            if indirect && reroll_hits.take().is_some() {
                notes.push("re-roll hits: not allowed with indirect shooting (10.07)".into());
            }
        }
        for (roll, sum) in [("hit", hit_mod), ("wound", wound_mod)] {
            if sum.abs() > 1 {
                notes.push(format!(
                    "{roll} roll modifiers sum to {sum:+}: capped at {:+}",
                    sum.clamp(-1, 1)
                ));
            }
        }
        if torrent && m.reroll_hits.is_some() {
            notes.push("re-roll hits: no effect: TORRENT makes no hit roll".into());
        }
        if !tenth && (m.crit_hit.is_some() || m.crit_wound.is_some()) {
            notes.push("critical thresholds: no effect in 9e (no critical hits or wounds)".into());
        }
        if m.fnp_mortal.is_some() && !devastating {
            notes.push(
                "Feel No Pain against mortal wounds: no effect: the attack inflicts none".into(),
            );
        }
        let armour = t.save.map(|sv| {
            let cover_applies = cover && !eleventh && !(sv <= 3 && w.ap == 0);
            (sv, w.ap + i32::from(cover_applies).min(1))
        });
        let per_model =
            attacks.attacks_for_roll(w.attacks.max(), attacks.extra.map(|d| d.max()).unwrap_or(0));
        let max_attacks = u64::from(sc.attackers) * u64::from(per_model);
        if max_attacks > MAX_VOLLEY_ATTACKS {
            return Err(invalid(
                "number of attacks",
                max_attacks,
                "at most 5000 per volley",
            ));
        }
        let max_hits = max_attacks * (1 + u64::from(sustained.map(|d| d.max()).unwrap_or(0)));
        if max_hits > MAX_VOLLEY_HITS {
            return Err(invalid(
                "number of hits",
                max_hits,
                "at most 20000 per volley",
            ));
        }
        Ok(Plan {
            attackers: sc.attackers,
            attacks,
            auto_hit: torrent,
            skill,
            hit_mod: hit_mod.clamp(-1, 1),
            // 11e 10.07: 1–5 fail, or 1–3 when stationary and the target is spotted.
            hit_fail_upto: match (indirect, eleventh) {
                (false, _) => 1,
                (true, true) if !(c.stationary && c.spotted) => 5,
                (true, _) => 3,
            },
            critical_hits: tenth && !torrent,
            critical_hit_at,
            critical_hit_always: if tenth && !torrent {
                m.crit_hit.unwrap_or(7)
            } else {
                7
            },
            reroll_hits,
            lethal,
            sustained,
            wound_need: wound_threshold(w.strength, t.toughness),
            wound_mod: wound_mod.clamp(-1, 1),
            critical_wound_at: if tenth {
                anti_at.min(m.crit_wound.unwrap_or(6))
            } else {
                7
            },
            reroll_wounds,
            devastating,
            armour,
            invuln: t.invuln,
            damage: w.damage,
            melta,
            fnp: t.fnp,
            fnp_mortal: m.fnp_mortal,
            halve_damage: m.halve_damage,
            damage_reduction: m.damage_reduction,
            models: t.models,
            wounds: t.wounds,
            notes,
            // 10e: a 1 in 6 fails, 3 mortal wounds; 11e 06.03: 1–2 fail, 1 mortal wound (3 when
            // every model is a MONSTER/VEHICLE, which the scenario does not know: noted).
            hazardous: hazardous.then_some(if eleventh { 2.0 / 6.0 } else { 3.0 / 6.0 }),
        })
    }

    /// Meaning of an unmodified hit roll (not used with TORRENT).
    pub fn hit(&self, roll: u8) -> Hit {
        if roll <= self.hit_fail_upto {
            return Hit::Miss;
        }
        if roll >= self.critical_hit_always {
            return Hit::Critical;
        }
        // An unmodified 6 always succeeds; a Critical Hit must also be a successful hit.
        let success = roll == 6 || i32::from(roll) + self.hit_mod >= i32::from(self.skill);
        if !success {
            Hit::Miss
        } else if self.critical_hits && roll >= self.critical_hit_at {
            Hit::Critical
        } else {
            Hit::Normal
        }
    }

    /// Whether an unmodified hit roll is rolled again (a failed roll is one that fails after
    /// modifiers).
    pub fn reroll_hit(&self, roll: u8) -> bool {
        match self.reroll_hits {
            None => false,
            Some(Reroll::Ones) => roll == 1,
            Some(Reroll::Failed) => self.hit(roll) == Hit::Miss,
        }
    }

    /// Whether an unmodified wound roll is rolled again.
    pub fn reroll_wound(&self, roll: u8) -> bool {
        match self.reroll_wounds {
            None => false,
            Some(Reroll::Ones) => roll == 1,
            Some(Reroll::Failed) => self.wound(roll) == Wound::Fail,
        }
    }

    /// Meaning of an unmodified wound roll (before any re-roll).
    pub fn wound(&self, roll: u8) -> Wound {
        if roll == 1 {
            return Wound::Fail;
        }
        if roll >= self.critical_wound_at {
            return Wound::Critical;
        }
        if roll == 6 || i32::from(roll) + self.wound_mod >= i32::from(self.wound_need) {
            Wound::Normal
        } else {
            Wound::Fail
        }
    }

    /// The save roll needed with the save the defender picks (the better of armour and
    /// invulnerable); 7 means no save possible.
    pub fn save_need(&self) -> u8 {
        let armour = self
            .armour
            .map(|(sv, m)| (i32::from(sv) - m).clamp(2, 7) as u8)
            .unwrap_or(7);
        let invuln = self.invuln.unwrap_or(7);
        armour.min(invuln)
    }

    /// Whether an unmodified save roll passes.
    pub fn save(&self, need: u8, roll: u8) -> bool {
        roll != 1 && roll >= need
    }

    /// Chance that one wound that would be lost is ignored.
    pub fn fnp_ignore(&self) -> f64 {
        self.fnp.map(|f| f64::from(7 - f) / 6.0).unwrap_or(0.0)
    }

    /// The Feel No Pain roll against a mortal wound: the better of the two that apply.
    pub fn fnp_mortal_roll(&self) -> Option<u8> {
        match (self.fnp, self.fnp_mortal) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Chance that one mortal wound that would be lost is ignored.
    pub fn fnp_mortal_ignore(&self) -> f64 {
        self.fnp_mortal_roll()
            .map(|f| f64::from(7 - f) / 6.0)
            .unwrap_or(0.0)
    }

    /// One attack's damage `d` after halving (rounding up) and damage reduction (never below
    /// 1; a damage of 0 stays 0).
    pub fn modified_damage(&self, d: u32) -> u32 {
        if d == 0 {
            return 0;
        }
        let d = if self.halve_damage { d.div_ceil(2) } else { d };
        d.saturating_sub(self.damage_reduction).max(1)
    }

    /// Distribution of the damage of one attack: the Damage characteristic with MELTA, then
    /// halving and damage reduction.
    pub fn damage_distribution(&self) -> Vec<f64> {
        let d = self.damage.distribution();
        let d = match self.melta {
            None => d,
            Some(m) => convolve(&d, &m.distribution()),
        };
        let mut out = vec![0.0; d.len()];
        for (v, &p) in d.iter().enumerate() {
            out[self.modified_damage(v as u32) as usize] += p;
        }
        while out.len() > 1 && out.last() == Some(&0.0) {
            out.pop();
        }
        out
    }
}

/// Discrete convolution of two distributions.
pub(crate) fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        if x == 0.0 {
            continue;
        }
        for (j, &y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}
