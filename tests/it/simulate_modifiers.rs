//! The simulator's modifiers (issue 28): re-rolls, hit and wound modifiers, critical
//! thresholds, damage reduction and halving, Feel No Pain against mortal wounds. Each flag has
//! a hand-worked case (the derivation in its comment), and every case is also checked against
//! `brute`, an independent calculator written here from the rules' text: it enumerates every
//! die of a small volley (hit roll and its re-roll, wound roll and its re-roll, save, damage,
//! each Feel No Pain roll) and allocates literally, sharing no code with the engine.

use cogitator::simulate::{self, Conditions, Dice, Modifiers, Reroll, Scenario, Target, Weapon};
use proptest::prelude::*;
use std::collections::HashMap;

fn weapon(a: &str, skill: u8, s: u32, ap: i32, d: &str, kws: &[&str]) -> Weapon {
    crate::util::sim_weapon(a, Some(skill), s, ap, d, kws)
}

/// An INFANTRY target (for ANTI-INFANTRY) with its Feel No Pain.
fn target(models: u32, t: u32, sv: Option<u8>, w: u32, fnp: Option<u8>) -> Target {
    Target {
        fnp,
        keywords: vec!["INFANTRY".into()],
        ..crate::util::sim_target(models, t, sv, w)
    }
}

fn scenario(attackers: u32, weapon: Weapon, target: Target, m: Modifiers) -> Scenario {
    Scenario {
        attackers,
        weapon,
        target,
        conditions: Conditions {
            modifiers: m,
            ..Conditions::default()
        },
    }
}

#[track_caller]
fn close(got: f64, want: f64) {
    assert!((got - want).abs() < 1e-9, "got {got}, want {want}");
}

// --- the independent calculator ---------------------------------------------------------------

/// A distribution over values of `T`.
type Dist<T> = Vec<(T, f64)>;

fn d6() -> Dist<u8> {
    (1..=6).map(|r| (r, 1.0 / 6.0)).collect()
}

/// The unmodified roll that stands: the first, or its re-roll when `again` says so.
fn roll_with_reroll(again: impl Fn(u8) -> bool) -> Dist<u8> {
    let mut out = Vec::new();
    for (r, p) in d6() {
        if again(r) {
            out.extend(d6().into_iter().map(|(r2, p2)| (r2, p * p2)));
        } else {
            out.push((r, p));
        }
    }
    out
}

fn dice(d: Dice) -> Dist<u32> {
    let mut out: Dist<u32> = vec![(d.modifier, 1.0)];
    for _ in 0..d.count {
        let mut next = Vec::new();
        for (v, p) in &out {
            for f in 1..=d.sides {
                next.push((v + f, p / f64::from(d.sides)));
            }
        }
        out = next;
    }
    out
}

/// The rules, written out for one volley of a weapon with constant attacks (no keywords
/// but SUSTAINED HITS 1, LETHAL HITS, DEVASTATING WOUNDS, ANTI-INFANTRY, TWIN-LINKED).
struct Brute<'a> {
    s: &'a Scenario,
}

/// One damage event: (devastating, damage before Feel No Pain).
type Event = (bool, u32);

impl Brute<'_> {
    fn has(&self, name: &str) -> bool {
        self.s
            .weapon
            .keywords
            .iter()
            .any(|k| k.to_string().starts_with(name))
    }

    fn m(&self) -> &Modifiers {
        &self.s.conditions.modifiers
    }

    fn hit_ok(&self, r: u8) -> bool {
        let crit = self.m().crit_hit.unwrap_or(6);
        let modifier = self.m().hit_modifier.clamp(-1, 1);
        r >= crit || (r != 1 && i32::from(r) + modifier >= i32::from(self.s.weapon.skill.unwrap()))
    }

    fn wound_need(&self) -> u8 {
        let (s, t) = (self.s.weapon.strength, self.s.target.toughness);
        match () {
            _ if s >= 2 * t => 2,
            _ if s > t => 3,
            _ if s == t => 4,
            _ if 2 * s <= t => 6,
            _ => 5,
        }
    }

    fn crit_wound_at(&self) -> u8 {
        let anti = if self.has("ANTI-INFANTRY") { 4 } else { 6 };
        anti.min(self.m().crit_wound.unwrap_or(6))
    }

    fn wound_ok(&self, r: u8) -> bool {
        let modifier = self.m().wound_modifier.clamp(-1, 1);
        r >= self.crit_wound_at()
            || (r != 1 && i32::from(r) + modifier >= i32::from(self.wound_need()))
    }

    /// The events one hit that rolls to wound makes.
    fn to_wound(&self) -> Dist<Vec<Event>> {
        let again = |r: u8| {
            let rule = if self.has("TWIN-LINKED") {
                Some(Reroll::Failed).max(self.m().reroll_wounds)
            } else {
                self.m().reroll_wounds
            };
            match rule {
                Some(Reroll::Ones) => r == 1,
                Some(Reroll::Failed) => !self.wound_ok(r),
                None => false,
            }
        };
        let mut out = Vec::new();
        for (r, p) in roll_with_reroll(again) {
            if !self.wound_ok(r) {
                out.push((vec![], p));
            } else if r >= self.crit_wound_at() && self.has("DEVASTATING") {
                for (d, pd) in self.damage() {
                    out.push((vec![(true, d)], p * pd));
                }
            } else {
                out.extend(self.unsaved().into_iter().map(|(e, q)| (e, p * q)));
            }
        }
        out
    }

    /// A wound that allows a save: saved (no event) or an unsaved normal event.
    fn unsaved(&self) -> Dist<Vec<Event>> {
        let need = self
            .s
            .target
            .save
            .map_or(7, |sv| i32::from(sv) - self.s.weapon.ap)
            .min(7);
        let mut out = Vec::new();
        for (r, p) in d6() {
            if r != 1 && i32::from(r) >= need {
                out.push((vec![], p));
            } else {
                for (d, pd) in self.damage() {
                    out.push((vec![(false, d)], p * pd));
                }
            }
        }
        out
    }

    fn damage(&self) -> Dist<u32> {
        let m = self.m();
        dice(self.s.weapon.damage)
            .into_iter()
            .map(|(d, p)| {
                let d = if m.halve_damage { d.div_ceil(2) } else { d };
                (d.saturating_sub(m.damage_reduction).max(1), p)
            })
            .collect()
    }

    /// The events of one attack.
    fn attack(&self) -> Dist<Vec<Event>> {
        let again = |r: u8| match self.m().reroll_hits {
            Some(Reroll::Ones) => r == 1,
            Some(Reroll::Failed) => !self.hit_ok(r),
            None => false,
        };
        let mut out = Vec::new();
        for (r, p) in roll_with_reroll(again) {
            if !self.hit_ok(r) {
                out.push((vec![], p));
                continue;
            }
            let crit = r >= self.m().crit_hit.unwrap_or(6);
            let first = if crit && self.has("LETHAL") {
                self.unsaved()
            } else {
                self.to_wound()
            };
            let all = if crit && self.has("SUSTAINED") {
                then(&first, &self.to_wound())
            } else {
                first
            };
            out.extend(all.into_iter().map(|(e, q)| (e, p * q)));
        }
        out
    }

    /// Expected damage, expected models destroyed and the damage distribution.
    fn run(&self) -> (f64, f64, Vec<f64>) {
        let n = self.s.attackers * self.s.weapon.attacks.modifier;
        let mut volley: Dist<Vec<Event>> = vec![(vec![], 1.0)];
        for _ in 0..n {
            volley = then(&volley, &self.attack());
        }
        let (m, w) = (self.s.target.models, self.s.target.wounds);
        // (models left, wounds left on the current model, damage) → probability.
        let mut end: HashMap<(u32, u32, u32), f64> = HashMap::new();
        for (events, p) in volley {
            let mut states: HashMap<(u32, u32, u32), f64> = HashMap::from([((m, w, 0), p)]);
            // Normal events first, then the devastating ones.
            let order = events
                .iter()
                .filter(|e| !e.0)
                .chain(events.iter().filter(|e| e.0));
            for &(dev, d) in order {
                let fnp = if dev {
                    match (self.s.target.fnp, self.m().fnp_mortal) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    }
                } else {
                    self.s.target.fnp
                };
                states = suffer(states, d, fnp, w);
            }
            for (k, q) in states {
                *end.entry(k).or_default() += q;
            }
        }
        let mut dist = vec![0.0; (m * w) as usize + 1];
        let (mut ed, mut em) = (0.0, 0.0);
        for ((left, _, dmg), p) in end {
            dist[dmg as usize] += p;
            ed += f64::from(dmg) * p;
            em += f64::from(m - left) * p;
        }
        (ed, em, dist)
    }
}

/// Both in sequence: every pair of outcomes, events concatenated.
fn then(a: &Dist<Vec<Event>>, b: &Dist<Vec<Event>>) -> Dist<Vec<Event>> {
    let mut out: HashMap<Vec<Event>, f64> = HashMap::new();
    for (ea, pa) in a {
        for (eb, pb) in b {
            let mut e = ea.clone();
            e.extend(eb);
            *out.entry(e).or_default() += pa * pb;
        }
    }
    out.into_iter().collect()
}

/// One event of `d` damage: each wound is rolled for Feel No Pain; the current model takes
/// them until it is destroyed, the rest is lost.
fn suffer(
    states: HashMap<(u32, u32, u32), f64>,
    d: u32,
    fnp: Option<u8>,
    full: u32,
) -> HashMap<(u32, u32, u32), f64> {
    let keep = fnp.map_or(1.0, |f| f64::from(f - 1) / 6.0);
    let mut out: HashMap<(u32, u32, u32), f64> = HashMap::new();
    for ((left, wounds, dmg), p) in states {
        // (wounds still to resolve, wounds on the model, damage, destroyed this event)
        let mut cur: HashMap<(u32, u32, u32, bool), f64> =
            HashMap::from([((d, wounds, dmg, false), p)]);
        let mut done: HashMap<(u32, u32, u32), f64> = HashMap::new();
        while !cur.is_empty() {
            let mut next: HashMap<(u32, u32, u32, bool), f64> = HashMap::new();
            for ((todo, wl, dm, dead), q) in cur {
                if todo == 0 || dead || left == 0 {
                    let (l, w2) = if dead { (left - 1, full) } else { (left, wl) };
                    *done.entry((l, w2, dm)).or_default() += q;
                    continue;
                }
                *next.entry((todo - 1, wl, dm, false)).or_default() += q * (1.0 - keep);
                let killed = wl == 1;
                *next.entry((todo - 1, wl - 1, dm + 1, killed)).or_default() += q * keep;
            }
            cur = next;
        }
        for (k, q) in done {
            *out.entry(k).or_default() += q;
        }
    }
    out
}

#[track_caller]
fn agrees_with_brute(s: &Scenario) -> simulate::Outcome {
    let o = simulate::exact(s).unwrap();
    let (ed, em, dist) = Brute { s }.run();
    close(o.expected_damage, ed);
    close(o.expected_models_destroyed, em);
    assert_eq!(o.damage_distribution.len(), dist.len());
    for (a, b) in o.damage_distribution.iter().zip(&dist) {
        close(*a, *b);
    }
    close(o.damage_distribution.iter().sum(), 1.0);
    close(o.models_destroyed_distribution.iter().sum(), 1.0);
    o
}

// --- hand-worked cases, one per flag --------------------------------------------------------

/// `--reroll-hits ones`, BS 4+, S4 T4 (4+), no save, D1, 10 attacks vs 20×W1.
/// P(hit) = 3/6 + (1/6)·(3/6) = 7/12; P(wound) = 1/2; E = 10·7/24 = 70/24.
#[test]
fn reroll_hits_ones() {
    let m = Modifiers {
        reroll_hits: Some(Reroll::Ones),
        ..Modifiers::default()
    };
    let s = scenario(
        1,
        weapon("10", 4, 4, 0, "1", &[]),
        target(20, 4, None, 1, None),
        m,
    );
    let o = simulate::exact(&s).unwrap();
    close(o.expected_damage, 70.0 / 24.0);
    close(o.expected_hits, 70.0 / 12.0);
}

/// `--reroll-hits failed`, BS 4+: P(hit) = 1/2 + 1/2·1/2 = 3/4; wound 1/2; 4 attacks → 3/2.
/// `--reroll-wounds failed` as well: P(wound) = 3/4 → 4·3/4·3/4 = 9/4.
#[test]
fn reroll_failed_hits_and_wounds() {
    let mut m = Modifiers {
        reroll_hits: Some(Reroll::Failed),
        ..Modifiers::default()
    };
    let w = weapon("4", 4, 4, 0, "1", &[]);
    let t = target(10, 4, None, 1, None);
    let o = agrees_with_brute(&scenario(1, w.clone(), t.clone(), m));
    close(o.expected_damage, 1.5);
    m.reroll_wounds = Some(Reroll::Failed);
    let o = agrees_with_brute(&scenario(1, w, t, m));
    close(o.expected_damage, 9.0 / 4.0);
}

/// `--reroll-wounds ones` with TWIN-LINKED: the failed ones are re-rolled (the larger set),
/// not twice: P(wound) at 4+ = 3/4, exactly TWIN-LINKED alone.
#[test]
fn twin_linked_with_reroll_ones_rerolls_once() {
    let m = Modifiers {
        reroll_wounds: Some(Reroll::Ones),
        ..Modifiers::default()
    };
    let w = weapon("4", 2, 4, 0, "1", &["TWIN-LINKED"]);
    let t = target(10, 4, None, 1, None);
    let both = agrees_with_brute(&scenario(1, w.clone(), t.clone(), m));
    let alone = simulate::exact(&scenario(1, w, t, Modifiers::default())).unwrap();
    close(both.expected_damage, alone.expected_damage);
    // BS 2+: P(hit) 5/6; wound 3/4 → 4·5/6·3/4 = 5/2.
    close(both.expected_damage, 2.5);
}

/// `--hit-modifier +2` is capped at +1: BS 4+ hits on 3+ (4/6), never on 2+.
/// `--hit-modifier -1` with BS 4+: 5+ (2/6), but an unmodified 6 still hits.
#[test]
fn hit_modifier_is_capped() {
    let w = weapon("6", 4, 8, 0, "1", &[]);
    let t = target(10, 4, None, 1, None);
    let plus = |n| Modifiers {
        hit_modifier: n,
        ..Modifiers::default()
    };
    // S8 vs T4 wounds on 2+ (5/6).
    let o = agrees_with_brute(&scenario(1, w.clone(), t.clone(), plus(2)));
    close(o.expected_damage, 6.0 * 4.0 / 6.0 * 5.0 / 6.0);
    let o1 = simulate::exact(&scenario(1, w.clone(), t.clone(), plus(1))).unwrap();
    close(o.expected_damage, o1.expected_damage);
    let o = agrees_with_brute(&scenario(1, weapon("6", 6, 8, 0, "1", &[]), t, plus(-1)));
    // BS 6+ at -1: only the unmodified 6 hits (1/6).
    close(o.expected_damage, 6.0 / 6.0 * 5.0 / 6.0);
}

/// `--wound-modifier -1` with S4 T4: 5+ (2/6); with LANCE charged it sums to 0: 4+ (3/6).
#[test]
fn wound_modifier_sums_with_lance() {
    let m = Modifiers {
        wound_modifier: -1,
        ..Modifiers::default()
    };
    let t = target(10, 4, None, 1, None);
    let o = agrees_with_brute(&scenario(1, weapon("6", 2, 4, 0, "1", &[]), t.clone(), m));
    close(o.expected_damage, 6.0 * 5.0 / 6.0 * 2.0 / 6.0);
    let mut s = scenario(1, weapon("6", 2, 4, 0, "1", &["LANCE"]), t, m);
    s.conditions.charged = true;
    let o = simulate::exact(&s).unwrap();
    close(o.expected_damage, 6.0 * 5.0 / 6.0 * 3.0 / 6.0);
}

/// `--crit-hit 5+` with LETHAL HITS, BS 4+, S3 T6 (6+): a 5 or 6 wounds automatically.
/// Per attack: crits 2/6 → 1 each; the 4 (1/6) wounds on 1/6. 6 attacks: 6·(2/6 + 1/36) = 13/6.
/// A critical hit succeeds even when the modified roll fails: BS 6+ at -1 with crit 5+ still
/// hits on 5 and 6.
#[test]
fn crit_hit_threshold() {
    let m = Modifiers {
        crit_hit: Some(5),
        ..Modifiers::default()
    };
    let t = target(10, 6, None, 1, None);
    let o = agrees_with_brute(&scenario(
        1,
        weapon("6", 4, 3, 0, "1", &["LETHAL HITS"]),
        t.clone(),
        m,
    ));
    close(o.expected_damage, 13.0 / 6.0);
    let m2 = Modifiers {
        hit_modifier: -1,
        ..m
    };
    let o = agrees_with_brute(&scenario(
        1,
        weapon("6", 6, 3, 0, "1", &["LETHAL HITS"]),
        t,
        m2,
    ));
    close(o.expected_hits, 2.0);
}

/// `--crit-wound 5+` with DEVASTATING WOUNDS against a 2+ save, S4 T4, BS 2+, D2, W2:
/// a 5 or 6 to wound is a mortal-wound attack (2/6), the 4 wounds and is saved on 2+ (1/6 ·
/// 1/6 unsaved). With ANTI-INFANTRY 4+ the lower threshold (4+) applies.
#[test]
fn crit_wound_threshold_and_anti() {
    let m = Modifiers {
        crit_wound: Some(5),
        ..Modifiers::default()
    };
    let t = target(10, 4, Some(2), 2, None);
    let o = agrees_with_brute(&scenario(
        1,
        weapon("3", 2, 4, 0, "2", &["DEVASTATING WOUNDS"]),
        t.clone(),
        m,
    ));
    close(
        o.expected_damage,
        3.0 * 5.0 / 6.0 * (2.0 / 6.0 + 1.0 / 36.0) * 2.0,
    );
    let o = agrees_with_brute(&scenario(
        1,
        weapon(
            "3",
            2,
            4,
            0,
            "2",
            &["DEVASTATING WOUNDS", "ANTI-INFANTRY 4+"],
        ),
        t,
        m,
    ));
    close(o.expected_damage, 3.0 * 5.0 / 6.0 * (3.0 / 6.0) * 2.0);
}

/// `--damage-reduction 1`: D3 → 1,1,2 (mean 4/3); D1 stays 1. `--halve-damage`: D6 →
/// 1,1,2,2,3,3 (mean 2). Both: D6 halved then −1 → 1,1,1,1,2,2 (mean 4/3).
#[test]
fn damage_reduction_and_halving() {
    let t = target(1, 4, None, 20, None);
    let auto = |d: &str, m: Modifiers| {
        // TORRENT, S8 vs T4 (2+): 6 hits, 5/6 wound.
        simulate::exact(&scenario(
            1,
            weapon("6", 2, 8, 0, d, &["TORRENT"]),
            t.clone(),
            m,
        ))
        .unwrap()
        .expected_damage
    };
    let red = Modifiers {
        damage_reduction: 1,
        ..Modifiers::default()
    };
    let half = Modifiers {
        halve_damage: true,
        ..Modifiers::default()
    };
    let both = Modifiers {
        damage_reduction: 1,
        halve_damage: true,
        ..Modifiers::default()
    };
    close(auto("D3", red), 5.0 * 4.0 / 3.0);
    close(auto("1", red), 5.0);
    close(auto("D6", half), 5.0 * 2.0);
    close(auto("D6", both), 5.0 * 4.0 / 3.0);
    // MELTA 2 at half range is added before: D6+2 halved, −1 → mean of ceil((d+2)/2)−1.
    let mut s = scenario(
        1,
        weapon("6", 2, 8, 0, "D6", &["TORRENT", "MELTA 2"]),
        t,
        both,
    );
    s.conditions.half_range = true;
    let mean = (3..=8)
        .map(|d: u32| f64::from(d.div_ceil(2) - 1))
        .sum::<f64>()
        / 6.0;
    close(simulate::exact(&s).unwrap().expected_damage, 5.0 * mean);
}

/// `--fnp-mortal 5+` ignores devastating damage only: 1 attack, BS 2+, S8 T4, D3 DEVASTATING
/// WOUNDS (crit on 6), save 2+ vs AP 0: each damage of the mortal-wound attack is ignored on
/// 5+; the normal wound, saved on 2+, is not affected. With `--fnp 6+` as well the mortal
/// wounds use the better (5+), the normal ones 6+.
#[test]
fn feel_no_pain_against_mortal_wounds() {
    let m = Modifiers {
        fnp_mortal: Some(5),
        ..Modifiers::default()
    };
    let w = weapon("2", 2, 8, 0, "D3", &["DEVASTATING WOUNDS"]);
    let o = agrees_with_brute(&scenario(1, w.clone(), target(1, 4, Some(2), 10, None), m));
    // Per attack: hit 5/6; crit wound 1/6 → 2 mean damage × 4/6 kept; normal wound 4/6 ×
    // unsaved 1/6 × 2.
    close(
        o.expected_damage,
        2.0 * 5.0 / 6.0 * (1.0 / 6.0 * 2.0 * 4.0 / 6.0 + 4.0 / 6.0 / 6.0 * 2.0),
    );
    // Two models of W2 with FNP 6+: the mortal wounds use the better roll (5+), so the damage
    // is below that of FNP 6+ alone, and above that of FNP 5+ against every wound.
    let with = agrees_with_brute(&scenario(
        1,
        w.clone(),
        target(2, 4, Some(2), 2, Some(6)),
        m,
    ));
    let fnp6 = simulate::exact(&scenario(
        1,
        w.clone(),
        target(2, 4, Some(2), 2, Some(6)),
        Modifiers::default(),
    ))
    .unwrap();
    let fnp5 = simulate::exact(&scenario(
        1,
        w,
        target(2, 4, Some(2), 2, Some(5)),
        Modifiers::default(),
    ))
    .unwrap();
    assert!(fnp5.expected_damage < with.expected_damage);
    assert!(with.expected_damage < fnp6.expected_damage);
}

/// Every modifier at once on a small volley, against the independent calculator, with
/// several targets (allocation across models, excess lost).
#[test]
fn combined_modifiers_agree_with_brute() {
    let m = Modifiers {
        reroll_hits: Some(Reroll::Ones),
        reroll_wounds: Some(Reroll::Failed),
        hit_modifier: -1,
        wound_modifier: 1,
        crit_hit: Some(5),
        crit_wound: Some(5),
        damage_reduction: 1,
        halve_damage: false,
        fnp_mortal: Some(5),
    };
    for kws in [
        &["SUSTAINED HITS 1", "DEVASTATING WOUNDS"][..],
        &["LETHAL HITS", "DEVASTATING WOUNDS"][..],
        &["TWIN-LINKED"][..],
    ] {
        for (models, w, fnp) in [(2, 2, None), (3, 3, Some(6)), (1, 5, Some(5))] {
            let s = scenario(
                1,
                weapon("3", 3, 5, -1, "D3", kws),
                target(models, 4, Some(3), w, fnp),
                m,
            );
            agrees_with_brute(&s);
            let mc = simulate::monte_carlo(&s, 100_000, 7).unwrap();
            let ex = simulate::exact(&s).unwrap();
            assert!(
                (mc.expected_damage - ex.expected_damage).abs() < 0.03,
                "{kws:?} {models}x W{w}: exact {} vs Monte Carlo {}",
                ex.expected_damage,
                mc.expected_damage
            );
        }
    }
}

// --- properties ---------------------------------------------------------------------------------

fn arb_modifiers() -> impl Strategy<Value = Modifiers> {
    let reroll = prop_oneof![
        Just(None),
        Just(Some(Reroll::Ones)),
        Just(Some(Reroll::Failed))
    ];
    (
        reroll.clone(),
        reroll,
        -3i32..=3,
        -3i32..=3,
        prop::option::of(2u8..=6),
        prop::option::of(2u8..=6),
        0u32..=3,
        any::<bool>(),
        prop::option::of(2u8..=6),
    )
        .prop_map(|(rh, rw, hm, wm, ch, cw, dr, hd, fm)| Modifiers {
            reroll_hits: rh,
            reroll_wounds: rw,
            hit_modifier: hm,
            wound_modifier: wm,
            crit_hit: ch,
            crit_wound: cw,
            damage_reduction: dr,
            halve_damage: hd,
            fnp_mortal: fm,
        })
}

fn arb_case() -> impl Strategy<Value = Scenario> {
    let kws = prop::sample::subsequence(
        vec![
            "SUSTAINED HITS 1",
            "LETHAL HITS",
            "DEVASTATING WOUNDS",
            "ANTI-INFANTRY 4+",
        ],
        0..=3,
    );
    (
        1u32..=3,
        2u8..=6,
        1u32..=10,
        -3i32..=0,
        prop_oneof![Just("1"), Just("2"), Just("D3"), Just("D6")],
        kws,
        1u32..=4,
        1u32..=10,
        prop::option::of(2u8..=6),
        1u32..=4,
        arb_modifiers(),
    )
        .prop_map(|(a, bs, s, ap, d, kws, models, t, sv, w, m)| {
            scenario(
                1,
                weapon(&a.to_string(), bs, s, ap, d, &kws),
                target(models, t, sv, w, None),
                m,
            )
        })
}

fn damage(s: &Scenario) -> f64 {
    simulate::exact(s).unwrap().expected_damage
}

proptest! {
    #![proptest_config(crate::util::proptest_config(100))]

    /// A re-roll (of ones or of failed rolls, hits or wounds) never lowers the expected damage.
    #[test]
    fn a_reroll_never_lowers_damage(s in arb_case()) {
        let base = damage(&s);
        for (hits, wounds) in [(Some(Reroll::Ones), None), (Some(Reroll::Failed), None),
                               (None, Some(Reroll::Ones)), (None, Some(Reroll::Failed))] {
            let mut r = s.clone();
            let m = &mut r.conditions.modifiers;
            m.reroll_hits = m.reroll_hits.max(hits);
            m.reroll_wounds = m.reroll_wounds.max(wounds);
            let got = damage(&r);
            prop_assert!(got >= base - 1e-12, "{:?}: {} < {}", r.conditions.modifiers, got, base);
        }
    }

    /// A hit or wound modifier beyond ±1 changes nothing.
    #[test]
    fn a_modifier_beyond_one_changes_nothing(s in arb_case(), n in 2i32..=5) {
        for sign in [1, -1] {
            let (mut a, mut b) = (s.clone(), s.clone());
            a.conditions.modifiers.hit_modifier = sign;
            b.conditions.modifiers.hit_modifier = sign * n;
            prop_assert!((damage(&a) - damage(&b)).abs() < 1e-12);
            a.conditions.modifiers.wound_modifier = sign;
            b.conditions.modifiers.wound_modifier = sign * n;
            prop_assert!((damage(&a) - damage(&b)).abs() < 1e-12);
        }
    }

    /// Damage reduction never takes a damaging attack below 1: against one model of W1 with
    /// no Feel No Pain (which rolls per point of damage), any reduction and halving kill
    /// exactly as often as none.
    #[test]
    fn damage_reduction_never_below_one(s in arb_case(), n in 1u32..=6) {
        let mut a = s.clone();
        a.target.models = 1;
        a.target.wounds = 1;
        a.conditions.modifiers.fnp_mortal = None;
        let mut b = a.clone();
        a.conditions.modifiers.damage_reduction = 0;
        a.conditions.modifiers.halve_damage = false;
        b.conditions.modifiers.damage_reduction = n;
        b.conditions.modifiers.halve_damage = true;
        prop_assert!((damage(&a) - damage(&b)).abs() < 1e-12);
    }

    /// Every distribution sums to 1 and the engine agrees with the independent calculator.
    #[test]
    fn agrees_with_the_independent_calculator(s in arb_case()) {
        let o = simulate::exact(&s).unwrap();
        let (ed, em, dist) = Brute { s: &s }.run();
        prop_assert!((o.expected_damage - ed).abs() < 1e-9, "{} vs {}", o.expected_damage, ed);
        prop_assert!((o.expected_models_destroyed - em).abs() < 1e-9);
        prop_assert_eq!(o.damage_distribution.len(), dist.len());
        prop_assert!((o.damage_distribution.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        prop_assert!((o.models_destroyed_distribution.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
}

/// `validate` applies what the attacking datasheet's abilities grant against each reference
/// target, where the target decides the condition: `+1 to hit and wound against MONSTER or
/// VEHICLE units` raises the `vehicle` and `monster` rows and leaves `infantry-horde`'s alone.
#[test]
fn validate_applies_the_attackers_granted_modifiers_per_target() {
    let path = format!("{}/output/datasheets.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let sheets: Vec<cogitator::model::Datasheet> = serde_json::from_str(&text).unwrap();
    let plain = sheets[0].clone();
    let mut granted = plain.clone();
    granted.abilities = vec![cogitator::model::Ability {
        name: "Righteous Paragons".into(),
        group: "datasheet".into(),
        tags: vec![],
        parameter: None,
        rule_id: None,
        text: Some("Each time a model in this unit makes an attack that targets a MONSTER or VEHICLE unit, add 1 to the Hit roll and add 1 to the Wound roll.".into()),
        at: Default::default(),
        translations: Default::default(),
    }];
    let panel = cogitator::validate::default_panel();
    let rows = |ds: &cogitator::model::Datasheet| {
        cogitator::validate::validate_datasheets(std::slice::from_ref(ds), &panel).0
    };
    let (a, b) = (rows(&plain), rows(&granted));
    assert_eq!(a.len(), b.len());
    let mut raised = 0;
    for (x, y) in a.iter().zip(&b) {
        assert_eq!((&x.weapon, &x.target), (&y.weapon, &y.target));
        if ["vehicle", "monster"].contains(&x.target.as_str()) {
            assert!(y.expected_damage >= x.expected_damage, "{x:?} {y:?}");
            raised += usize::from(y.expected_damage > x.expected_damage);
        } else {
            assert_eq!(x.expected_damage, y.expected_damage, "{x:?}");
        }
    }
    assert!(raised > 0);
}
