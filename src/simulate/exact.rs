//! The exact engine: per-attack outcome distribution → convolution over the attack count →
//! a Markov chain over the target's remaining wounds, one damage event at a time.
//!
//! Owns only arithmetic on a resolved [`Plan`]; it must not make rules decisions (those live
//! in `plan`) and never samples.
//!
//! State: `R`, the target unit's total wounds remaining (`0..=models*wounds`). Because damage
//! always goes to the model that has already lost wounds, the unit is at most one damaged
//! model plus full ones, so `R` determines models left (`ceil(R/W)`) and the wounds left on
//! the current model (`(R-1) % W + 1`). A damage event (an unsaved wound, or the mortal wounds
//! of one Devastating Wounds attack) with post-FNP damage `k` moves `R` to
//! `R - min(k, wounds left on the current model)`: excess is lost either way.

use super::plan::{convolve, Hit, Plan, Wound};
use super::{mean_of, Method, Outcome};

/// Per-die probabilities of one attack.
struct PerAttack {
    p_hit: f64,
    p_crit_hit: f64,
    /// Wound roll (after TWIN-LINKED re-rolls): success that is not critical, critical.
    p_wound: f64,
    p_crit_wound: f64,
    p_unsaved: f64,
}

fn per_attack(plan: &Plan) -> PerAttack {
    let (mut p_hit, mut p_crit_hit) = (0.0, 0.0);
    if plan.auto_hit {
        p_hit = 1.0;
    } else {
        for roll in 1..=6 {
            match plan.hit(roll) {
                Hit::Miss => {}
                Hit::Normal => p_hit += 1.0 / 6.0,
                Hit::Critical => p_crit_hit += 1.0 / 6.0,
            }
        }
    }
    let (mut w, mut c) = (0.0, 0.0);
    for roll in 1..=6 {
        match plan.wound(roll) {
            Wound::Fail => {}
            Wound::Normal => w += 1.0 / 6.0,
            Wound::Critical => c += 1.0 / 6.0,
        }
    }
    if plan.twin_linked {
        // Re-roll every failed wound roll; the re-roll's result stands.
        let fail = 1.0 - w - c;
        w += fail * w;
        c += fail * c;
    }
    let need = plan.save_need();
    let saved = (1..=6).filter(|&r| plan.save(need, r)).count() as f64 / 6.0;
    PerAttack {
        p_hit,
        p_crit_hit,
        p_wound: w,
        p_crit_wound: c,
        p_unsaved: 1.0 - saved,
    }
}

/// `Binomial(n, p)` as a dense vector.
fn binomial(n: usize, p: f64) -> Vec<f64> {
    let mut d = vec![0.0; n + 1];
    d[0] = 1.0;
    for i in 0..n {
        for k in (0..=i + 1).rev() {
            let stay = d[k] * (1.0 - p);
            let from = if k > 0 { d[k - 1] * p } else { 0.0 };
            d[k] = stay + from;
        }
    }
    d
}

pub(crate) fn run(plan: &Plan) -> Outcome {
    let pa = per_attack(plan);
    // P(one hit that rolls to wound becomes a damage event).
    let pe = pa.p_wound * pa.p_unsaved
        + pa.p_crit_wound * if plan.devastating { 1.0 } else { pa.p_unsaved };
    let p_wounds_per_roll = pa.p_wound + pa.p_crit_wound;
    let p_miss = 1.0 - pa.p_hit - pa.p_crit_hit;

    // Events produced by one attack.
    let mut f = vec![p_miss + pa.p_hit * (1.0 - pe), pa.p_hit * pe];
    let sustained = plan
        .sustained
        .map(|d| d.distribution())
        .unwrap_or_else(|| vec![1.0]);
    let extra_hits_mean = mean_of(&sustained);
    if pa.p_crit_hit > 0.0 {
        let pc = if plan.lethal { pa.p_unsaved } else { pe };
        let mut extra = vec![0.0; sustained.len()];
        for (x, &px) in sustained.iter().enumerate() {
            if px > 0.0 {
                for (k, b) in binomial(x, pe).into_iter().enumerate() {
                    extra[k] += px * b;
                }
            }
        }
        let crit = convolve(&[1.0 - pc, pc], &extra);
        if f.len() < crit.len() {
            f.resize(crit.len(), 0.0);
        }
        for (k, q) in crit.into_iter().enumerate() {
            f[k] += pa.p_crit_hit * q;
        }
    }
    let hits_per_attack = pa.p_hit + pa.p_crit_hit * (1.0 + extra_hits_mean);
    let crit_wounds = if plan.lethal { 1.0 } else { p_wounds_per_roll };
    let wounds_per_attack = pa.p_hit * p_wounds_per_roll
        + pa.p_crit_hit * (crit_wounds + extra_hits_mean * p_wounds_per_roll);

    // Attacks of the whole unit.
    let per_model = plan.attacks.distribution();
    let mut attacks = vec![1.0];
    for _ in 0..plan.attackers {
        attacks = convolve(&attacks, &per_model);
    }
    let expected_attacks = mean_of(&attacks);

    // Damage events of the whole volley: sum over n of P(A = n) · f^{*n}.
    let max_events = (attacks.len() - 1) * (f.len() - 1);
    let mut events = vec![0.0; max_events + 1];
    let mut fn_ = vec![1.0];
    for (n, &pn) in attacks.iter().enumerate() {
        if n > 0 {
            fn_ = convolve(&fn_, &f);
        }
        if pn > 0.0 {
            for (e, &q) in fn_.iter().enumerate() {
                events[e] += pn * q;
            }
        }
    }

    // Post-FNP damage of one event: k ~ Σ_d P(D = d) · Binomial(d, 1 - fnp).
    let keep = 1.0 - plan.fnp_ignore();
    let dmg = plan.damage_distribution();
    let mut q = vec![0.0; dmg.len()];
    for (d, &pd) in dmg.iter().enumerate() {
        if pd > 0.0 {
            for (k, b) in binomial(d, keep).into_iter().enumerate() {
                q[k] += pd * b;
            }
        }
    }
    let w = plan.wounds as usize;
    let total = plan.models as usize * w;
    // tail[j] = P(k >= j) for j in 0..=w.
    let mut tail = vec![0.0; w + 1];
    for (j, t) in tail.iter_mut().enumerate() {
        *t = q.iter().skip(j).sum();
    }

    // Markov chain over R. `state` is the distribution after e events; accumulate
    // P(E = e) · state into `fin`.
    let mut state = vec![0.0; total + 1];
    state[total] = 1.0;
    let mut fin = vec![0.0; total + 1];
    let mut next = vec![0.0; total + 1];
    let last = events.iter().rposition(|&p| p > 0.0).unwrap_or(0);
    for e in 0..=last {
        let pe_count = events[e];
        if pe_count > 0.0 {
            for (r, &s) in state.iter().enumerate() {
                fin[r] += pe_count * s;
            }
        }
        if e == last {
            break;
        }
        if state[0] >= 1.0 {
            // Everything is destroyed: later events change nothing.
            fin[0] += events[e + 1..=last].iter().sum::<f64>();
            break;
        }
        next.iter_mut().for_each(|x| *x = 0.0);
        next[0] = state[0];
        for r in 1..=total {
            let s = state[r];
            if s == 0.0 {
                continue;
            }
            let left = (r - 1) % w + 1;
            for (k, &qk) in q.iter().enumerate().take(left) {
                next[r - k] += s * qk;
            }
            next[r - left] += s * tail[left];
        }
        std::mem::swap(&mut state, &mut next);
    }

    let mut damage_distribution = vec![0.0; total + 1];
    let mut models_destroyed_distribution = vec![0.0; plan.models as usize + 1];
    for (r, &p) in fin.iter().enumerate() {
        damage_distribution[total - r] += p;
        let models_left = r.div_ceil(w);
        models_destroyed_distribution[plan.models as usize - models_left] += p;
    }
    Outcome {
        method: Method::Exact,
        expected_attacks,
        expected_hits: expected_attacks * hits_per_attack,
        expected_wounds: expected_attacks * wounds_per_attack,
        expected_damage: mean_of(&damage_distribution),
        expected_models_destroyed: mean_of(&models_destroyed_distribution),
        damage_distribution,
        models_destroyed_distribution,
        notes: plan.notes.clone(),
        expected_hazardous_mortal_wounds: plan
            .hazardous
            .then(|| f64::from(plan.attackers) * 3.0 / 6.0),
    }
}
