//! The Monte Carlo engine: rolls every die of a volley literally, `trials` times, with a
//! `rand_pcg::Pcg64` seeded from the caller's seed (portable and reproducible).
//!
//! Owns sampling and the literal allocation sequence (normal attacks in order, then the
//! Devastating Wounds attacks, each model tracked explicitly). It must not make rules
//! decisions (those live in `plan`), so it cross-checks the exact engine's arithmetic.

use super::plan::{Hit, Plan, Wound};
use super::{mean_of, Method, Outcome};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

fn d6(rng: &mut Pcg64) -> u8 {
    rng.random_range(1..=6u8)
}

/// The target unit during one volley.
struct Unit {
    models_left: u32,
    wounds_left: u32,
    full_wounds: u32,
    damage: u32,
}

impl Unit {
    /// One damage event of `amount` wounds to the current model; FNP per wound; excess lost.
    fn suffer(&mut self, amount: u32, fnp: Option<u8>, rng: &mut Pcg64) {
        for _ in 0..amount {
            if self.models_left == 0 {
                return;
            }
            if let Some(f) = fnp {
                if d6(rng) >= f {
                    continue;
                }
            }
            self.wounds_left -= 1;
            self.damage += 1;
            if self.wounds_left == 0 {
                self.models_left -= 1;
                self.wounds_left = self.full_wounds;
                // The rest of this attack's damage is lost.
                return;
            }
        }
    }
}

/// Trials between two calls of the progress callback.
pub(crate) const PROGRESS_EVERY: u64 = 1 << 14;

pub(crate) fn run(plan: &Plan, trials: u64, seed: u64, progress: &dyn Fn(u64)) -> Outcome {
    let mut rng = Pcg64::seed_from_u64(seed);
    let total = (plan.models * plan.wounds) as usize;
    let mut damage_counts = vec![0u64; total + 1];
    let mut destroyed_counts = vec![0u64; plan.models as usize + 1];
    let (mut sum_attacks, mut sum_hits, mut sum_wounds) = (0u64, 0u64, 0u64);
    let save_need = plan.save_need();
    let mut normal: Vec<u32> = Vec::new();
    let mut devastating: Vec<u32> = Vec::new();
    for trial in 0..trials {
        if trial % PROGRESS_EVERY == 0 {
            progress(trial);
        }
        normal.clear();
        devastating.clear();
        let mut hits_to_roll = 0u32;
        let mut auto_wounds = 0u32;
        for _ in 0..plan.attackers {
            let base = plan.attacks.base.sample(&mut rng);
            let extra = plan.attacks.extra.map(|d| d.sample(&mut rng)).unwrap_or(0);
            let attacks = plan.attacks.attacks_for_roll(base, extra);
            sum_attacks += u64::from(attacks);
            for _ in 0..attacks {
                if plan.auto_hit {
                    hits_to_roll += 1;
                    continue;
                }
                let mut roll = d6(&mut rng);
                if plan.reroll_hit(roll) {
                    roll = d6(&mut rng);
                }
                match plan.hit(roll) {
                    Hit::Miss => {}
                    Hit::Normal => hits_to_roll += 1,
                    Hit::Critical => {
                        if plan.lethal {
                            auto_wounds += 1;
                        } else {
                            hits_to_roll += 1;
                        }
                        if let Some(x) = plan.sustained {
                            hits_to_roll += x.sample(&mut rng);
                        }
                    }
                }
            }
        }
        sum_hits += u64::from(hits_to_roll + auto_wounds);
        // Wound rolls; each wound is either saved, an unsaved normal wound, or devastating.
        let mut wounds: Vec<bool> = vec![false; auto_wounds as usize]; // false = not critical
        for _ in 0..hits_to_roll {
            let mut roll = d6(&mut rng);
            if plan.reroll_wound(roll) {
                roll = d6(&mut rng);
            }
            match plan.wound(roll) {
                Wound::Fail => {}
                Wound::Normal => wounds.push(false),
                Wound::Critical => wounds.push(true),
            }
        }
        sum_wounds += wounds.len() as u64;
        for critical in wounds {
            let dmg = plan.modified_damage(
                plan.damage.sample(&mut rng) + plan.melta.map(|m| m.sample(&mut rng)).unwrap_or(0),
            );
            if critical && plan.devastating {
                devastating.push(dmg);
            } else if !plan.save(save_need, d6(&mut rng)) {
                normal.push(dmg);
            }
        }
        let mut unit = Unit {
            models_left: plan.models,
            wounds_left: plan.wounds,
            full_wounds: plan.wounds,
            damage: 0,
        };
        for &d in &normal {
            unit.suffer(d, plan.fnp, &mut rng);
        }
        for &d in &devastating {
            unit.suffer(d, plan.fnp_mortal_roll(), &mut rng);
        }
        damage_counts[unit.damage as usize] += 1;
        destroyed_counts[(plan.models - unit.models_left) as usize] += 1;
    }
    let n = trials as f64;
    let damage_distribution: Vec<f64> = damage_counts.iter().map(|&c| c as f64 / n).collect();
    let models_destroyed_distribution: Vec<f64> =
        destroyed_counts.iter().map(|&c| c as f64 / n).collect();
    Outcome {
        method: Method::MonteCarlo,
        expected_attacks: sum_attacks as f64 / n,
        expected_hits: sum_hits as f64 / n,
        expected_wounds: sum_wounds as f64 / n,
        expected_damage: mean_of(&damage_distribution),
        expected_models_destroyed: mean_of(&models_destroyed_distribution),
        damage_distribution,
        models_destroyed_distribution,
        notes: plan.notes.clone(),
        expected_hazardous_mortal_wounds: plan.hazardous.map(|h| f64::from(plan.attackers) * h),
    }
}
