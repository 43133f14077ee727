//! The simulator modifiers a datasheet's abilities grant: the few ability sentences whose
//! effect is a [`Modifiers`] field and whose condition the scenario can decide (none, the
//! target's keywords, the attack's Strength against the target's Toughness, a ranged attack).
//!
//! Owns that grammar only. It must not guess: an ability with any other condition (leading a
//! unit, within 6", below Starting Strength, once per battle, an Oath of Moment target) or any
//! clause it does not read grants nothing, and a wargear ability grants nothing (the model
//! firing may not carry it). Text is matched as printed, after folding the apostrophe.

use super::{Modifiers, Reroll, Target, Weapon};
use crate::model::Datasheet;
use regex::Regex;
use std::sync::LazyLock;

/// One modifier an ability grants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    RerollHits(Reroll),
    RerollWounds(Reroll),
    HitModifier(i32),
    WoundModifier(i32),
    DamageReduction(u32),
    HalveDamage,
    FnpMortal(u8),
}

/// An effect and the ability that grants it (its name as printed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub ability: String,
    pub effect: Effect,
}

static ATTACKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?i:each time a model in this unit makes an attack)(?: (?i:that targets an?) (?P<kws>[A-Z][A-Z' -]*(?:(?:, | or )[A-Z][A-Z' -]*)*) (?i:unit))?, (?P<effects>.+)$",
    )
    .expect("static regex")
});

static DEFENDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?i)each time an? (?P<ranged>ranged )?attack (?:targets this unit|is allocated to this model), (?:if the strength characteristic of that attack is greater than the toughness characteristic of this (?:unit|model), )?(?P<effects>.+)$",
    )
    .expect("static regex")
});

static FNP_MORTAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?i)(?:this model has|this unit has|models in this unit have) the feel no pain (?P<x>[2-6])\+ ability against mortal wounds(?: and psychic attacks)?$",
    )
    .expect("static regex")
});

/// One clause of an effect list (`add 1 to the Hit roll`), or `None` when it is not read.
fn effect(clause: &str) -> Option<Effect> {
    static CLAUSE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^(?i)(?:(?P<can>you can )?re-roll (?:the|a) (?P<rr>hit|wound) roll(?P<ones> of 1)?|(?P<sign>add|subtract) (?P<n>[1-6]) (?:to|from) the (?P<roll>hit|wound) roll|subtract (?P<d>[1-6]) from (?:the damage characteristic of that attack|that attack's damage characteristic)|(?P<halve>halve the damage characteristic of that attack))$",
        )
        .expect("static regex")
    });
    let c = CLAUSE.captures(clause.trim())?;
    let hit = |g: &str| {
        c.name(g)
            .is_some_and(|m| m.as_str().eq_ignore_ascii_case("hit"))
    };
    if c.name("rr").is_some() {
        let which = if c.name("ones").is_some() {
            Reroll::Ones
        } else {
            Reroll::Failed
        };
        return Some(if hit("rr") {
            Effect::RerollHits(which)
        } else {
            Effect::RerollWounds(which)
        });
    }
    if let Some(n) = c.name("n").and_then(|n| n.as_str().parse::<i32>().ok()) {
        let n = if c["sign"].eq_ignore_ascii_case("add") {
            n
        } else {
            -n
        };
        return Some(if hit("roll") {
            Effect::HitModifier(n)
        } else {
            Effect::WoundModifier(n)
        });
    }
    if let Some(d) = c.name("d").and_then(|d| d.as_str().parse().ok()) {
        return Some(Effect::DamageReduction(d));
    }
    c.name("halve").map(|_| Effect::HalveDamage)
}

/// Every clause of `effects` (`… and …`), or none when one is not read.
fn effects(effects: &str) -> Option<Vec<Effect>> {
    effects.split(" and ").map(effect).collect()
}

fn sentences(ds: &Datasheet) -> impl Iterator<Item = (&str, String)> {
    ds.abilities
        .iter()
        .filter(|a| !a.group.eq_ignore_ascii_case("wargear"))
        .filter_map(|a| {
            let t = a.text.as_deref()?.trim().replace('’', "'");
            let t = t.strip_suffix('.').unwrap_or(&t).to_string();
            // One sentence only: a second one may carry a condition.
            (!t.contains(". ") && !t.contains('\n')).then_some((a.name.as_str(), t))
        })
}

/// What the attacker's abilities grant its attacks against `target`.
pub fn attacker_grants(attacker: &Datasheet, target: &Target) -> Vec<Grant> {
    let mut out = Vec::new();
    for (name, t) in sentences(attacker) {
        let Some(c) = ATTACKER.captures(&t) else {
            continue;
        };
        if let Some(kws) = c.name("kws") {
            let wanted: Vec<&str> = kws
                .as_str()
                .split(", ")
                .flat_map(|k| k.split(" or "))
                .map(str::trim)
                .collect();
            let has = |k: &str| target.keywords.iter().any(|t| t.eq_ignore_ascii_case(k));
            if !wanted.iter().any(|k| has(k)) {
                continue;
            }
        }
        let Some(es) = effects(&c["effects"]) else {
            continue;
        };
        // An attacker's ability never reduces its own damage.
        if es.iter().all(|e| {
            matches!(
                e,
                Effect::RerollHits(_)
                    | Effect::RerollWounds(_)
                    | Effect::HitModifier(_)
                    | Effect::WoundModifier(_)
            )
        }) {
            out.extend(es.into_iter().map(|effect| Grant {
                ability: name.to_string(),
                effect,
            }));
        }
    }
    out
}

/// What the target's abilities grant against an attack made with `weapon`.
pub fn defender_grants(defender: &Datasheet, weapon: &Weapon, target: &Target) -> Vec<Grant> {
    let mut out = Vec::new();
    for (name, t) in sentences(defender) {
        let grant = |effect| Grant {
            ability: name.to_string(),
            effect,
        };
        if let Some(c) = FNP_MORTAL.captures(&t) {
            if let Ok(x) = c["x"].parse() {
                out.push(grant(Effect::FnpMortal(x)));
            }
            continue;
        }
        let Some(c) = DEFENDER.captures(&t) else {
            continue;
        };
        if c.name("ranged").is_some() && weapon.melee {
            continue;
        }
        if t.to_ascii_lowercase()
            .contains("if the strength characteristic")
            && weapon.strength <= target.toughness
        {
            continue;
        }
        let Some(es) = effects(&c["effects"]) else {
            continue;
        };
        // A defender's ability only ever worsens the attack.
        if es.iter().all(|e| match e {
            Effect::HitModifier(n) | Effect::WoundModifier(n) => *n < 0,
            Effect::DamageReduction(_) | Effect::HalveDamage => true,
            _ => false,
        }) {
            out.extend(es.into_iter().map(grant));
        }
    }
    out
}

/// The modifiers the grants add up to: roll modifiers summed (the engine caps them),
/// re-rolls the larger, damage reductions summed, the better Feel No Pain.
pub fn modifiers(grants: &[Grant]) -> Modifiers {
    let mut m = Modifiers::default();
    for g in grants {
        match g.effect {
            Effect::RerollHits(r) => m.reroll_hits = m.reroll_hits.max(Some(r)),
            Effect::RerollWounds(r) => m.reroll_wounds = m.reroll_wounds.max(Some(r)),
            Effect::HitModifier(n) => m.hit_modifier += n,
            Effect::WoundModifier(n) => m.wound_modifier += n,
            Effect::DamageReduction(n) => m.damage_reduction += n,
            Effect::HalveDamage => m.halve_damage = true,
            Effect::FnpMortal(x) => m.fnp_mortal = Some(m.fnp_mortal.map_or(x, |f| f.min(x))),
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Ability, Edition};

    fn sheet(abilities: &[(&str, &str, &str)]) -> Datasheet {
        let mut ds = Datasheet::empty(Edition::Tenth);
        ds.abilities = abilities
            .iter()
            .map(|(name, group, text)| Ability {
                name: name.to_string(),
                group: group.to_string(),
                tags: vec![],
                parameter: None,
                rule_id: None,
                text: Some(text.to_string()),
                at: Default::default(),
                translations: Default::default(),
            })
            .collect();
        ds
    }

    fn weapon(strength: u32, melee: bool) -> Weapon {
        Weapon {
            name: "w".into(),
            melee,
            attacks: super::super::Dice::constant(1),
            skill: Some(3),
            strength,
            ap: 0,
            damage: super::super::Dice::constant(1),
            keywords: vec![],
        }
    }

    fn target(keywords: &[&str]) -> Target {
        Target {
            models: 1,
            toughness: 5,
            save: Some(3),
            invuln: None,
            wounds: 3,
            fnp: None,
            keywords: keywords.iter().map(|k| k.to_string()).collect(),
        }
    }

    #[test]
    fn defender_sentences() {
        let ds = sheet(&[
            ("Guardian Eternal", "datasheet", "Each time an attack is allocated to this model, subtract 1 from the Damage characteristic of that attack."),
            ("Molten Form", "datasheet", "Each time an attack is allocated to this model, halve the Damage characteristic of that attack."),
            ("Shrouded", "datasheet", "Each time a ranged attack targets this unit, subtract 1 from the Hit roll."),
            ("Hardened", "datasheet", "Each time an attack targets this unit, if the Strength characteristic of that attack is greater than the Toughness characteristic of this unit, subtract 1 from the Wound roll."),
            ("Warded", "datasheet", "This model has the Feel No Pain 4+ ability against mortal wounds and Psychic Attacks."),
            ("Bodyguard", "datasheet", "While this model is leading a unit, each time an attack targets that unit, subtract 1 from the Wound roll."),
            ("Refractor", "wargear", "Each time an attack is allocated to this model, subtract 1 from the Damage characteristic of that attack."),
        ]);
        let m = modifiers(&defender_grants(&ds, &weapon(6, false), &target(&[])));
        assert_eq!(m.damage_reduction, 1);
        assert!(m.halve_damage);
        assert_eq!(m.hit_modifier, -1);
        assert_eq!(m.wound_modifier, -1);
        assert_eq!(m.fnp_mortal, Some(4));
        // Melee: no ranged-only penalty; S5 vs T5: not greater, no wound penalty.
        let m = modifiers(&defender_grants(&ds, &weapon(5, true), &target(&[])));
        assert_eq!((m.hit_modifier, m.wound_modifier), (0, 0));
    }

    #[test]
    fn attacker_sentences_with_target_keywords() {
        let ds = sheet(&[
            ("Tank Hunters", "datasheet", "Each time a model in this unit makes an attack that targets a MONSTER or VEHICLE unit, you can re-roll the Wound roll."),
            ("Paragons", "datasheet", "Each time a model in this unit makes an attack that targets a CHARACTER, MONSTER or VEHICLE unit, add 1 to the Hit roll and add 1 to the Wound roll."),
            ("Zeal", "datasheet", "Each time a model in this unit makes an attack, re-roll a Hit roll of 1."),
            ("Vengeful", "datasheet", "Each time a model in this unit makes an attack that targets a unit that is Below Half-strength, add 1 to the Hit roll."),
            ("Mixed", "datasheet", "Each time a model in this unit makes an attack, add 1 to the Hit roll and that attack has the [LETHAL HITS] ability."),
        ]);
        let m = modifiers(&attacker_grants(&ds, &target(&["VEHICLE"])));
        assert_eq!(m.reroll_wounds, Some(Reroll::Failed));
        assert_eq!(m.reroll_hits, Some(Reroll::Ones));
        assert_eq!((m.hit_modifier, m.wound_modifier), (1, 1));
        let m = modifiers(&attacker_grants(&ds, &target(&["INFANTRY"])));
        assert_eq!(m.reroll_wounds, None);
        assert_eq!(m.reroll_hits, Some(Reroll::Ones));
        assert_eq!(m.hit_modifier, 0);
    }
}
