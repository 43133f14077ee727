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
    /// Wound roll (after re-rolls): success that is not critical, critical.
    p_wound: f64,
    p_crit_wound: f64,
    p_unsaved: f64,
}

/// The probabilities of a d6 roll's outcomes (`outcome` maps a face to `0..N`) when the faces
/// `again` names are rolled once more and the second roll stands.
fn with_reroll<const N: usize>(
    outcome: impl Fn(u8) -> usize,
    again: impl Fn(u8) -> bool,
) -> [f64; N] {
    let mut once = [0.0; N];
    for roll in 1..=6 {
        once[outcome(roll)] += 1.0 / 6.0;
    }
    let rerolled = (1..=6).filter(|&r| again(r)).count() as f64 / 6.0;
    let mut out = once.map(|p| p * rerolled);
    for roll in (1..=6).filter(|&r| !again(r)) {
        out[outcome(roll)] += 1.0 / 6.0;
    }
    out
}

fn per_attack(plan: &Plan) -> PerAttack {
    let [_, p_hit, p_crit_hit] = if plan.auto_hit {
        [0.0, 1.0, 0.0]
    } else {
        with_reroll(
            |r| match plan.hit(r) {
                Hit::Miss => 0,
                Hit::Normal => 1,
                Hit::Critical => 2,
            },
            |r| plan.reroll_hit(r),
        )
    };
    let [_, w, c] = with_reroll(
        |r| match plan.wound(r) {
            Wound::Fail => 0,
            Wound::Normal => 1,
            Wound::Critical => 2,
        },
        |r| plan.reroll_wound(r),
    );
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

/// A joint distribution of (normal damage events, Devastating Wounds events): `[n][d]`.
type Grid = Vec<Vec<f64>>;

fn conv2(a: &Grid, b: &Grid) -> Grid {
    let rows = a.len() + b.len() - 1;
    let cols = a[0].len() + b[0].len() - 1;
    let mut out = vec![vec![0.0; cols]; rows];
    for (i, ra) in a.iter().enumerate() {
        for (j, &x) in ra.iter().enumerate() {
            if x == 0.0 {
                continue;
            }
            for (k, rb) in b.iter().enumerate() {
                for (l, &y) in rb.iter().enumerate() {
                    out[i + k][j + l] += x * y;
                }
            }
        }
    }
    out
}

/// `into += p · g`, growing `into` as needed.
fn add_scaled(into: &mut Grid, p: f64, g: &Grid) {
    if into.len() < g.len() {
        into.resize(g.len(), Vec::new());
    }
    let cols = into
        .iter()
        .map(Vec::len)
        .chain([g[0].len()])
        .max()
        .unwrap_or(1);
    for row in into.iter_mut() {
        row.resize(cols, 0.0);
    }
    for (i, r) in g.iter().enumerate() {
        for (j, &x) in r.iter().enumerate() {
            into[i][j] += p * x;
        }
    }
}

/// One step of the allocation chain: every state `r` suffers one damage event whose post-FNP
/// damage is `q` (`tail[j]` = P(k ≥ j)); excess over the current model's wounds is lost.
fn step(state: &[f64], next: &mut [f64], q: &[f64], tail: &[f64], w: usize) {
    next.iter_mut().for_each(|x| *x = 0.0);
    next[0] = state[0];
    for r in 1..state.len() {
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
}

/// Post-FNP damage of one event: `k ~ Σ_d P(D = d) · Binomial(d, 1 - ignore)`, and its tail
/// `P(k ≥ j)` for `j` in `0..=w`.
fn post_fnp(dmg: &[f64], ignore: f64, w: usize) -> (Vec<f64>, Vec<f64>) {
    let mut q = vec![0.0; dmg.len()];
    for (d, &pd) in dmg.iter().enumerate() {
        if pd > 0.0 {
            for (k, b) in binomial(d, 1.0 - ignore).into_iter().enumerate() {
                q[k] += pd * b;
            }
        }
    }
    let tail = (0..=w).map(|j| q.iter().skip(j).sum()).collect();
    (q, tail)
}

/// The chain when every event has the same kernel: `Σ_e P(E = e) · T^e δ_total`.
fn chain_one(events: &[f64], q: &[f64], tail: &[f64], total: usize, w: usize) -> Vec<f64> {
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
        step(&state, &mut next, q, tail, w);
        std::mem::swap(&mut state, &mut next);
    }
    fin
}

/// The chain when the Devastating Wounds events have their own kernel (a Feel No Pain against
/// mortal wounds): the normal events first, then the devastating ones, as the rules allocate
/// them. `Σ_{n,d} P(n, d) · T_dev^d T_normal^n δ_total`.
fn chain_two(
    events: &Grid,
    normal: (&[f64], &[f64]),
    dev: (&[f64], &[f64]),
    total: usize,
    w: usize,
) -> Vec<f64> {
    let mut state = vec![0.0; total + 1];
    state[total] = 1.0;
    let mut fin = vec![0.0; total + 1];
    let mut next = vec![0.0; total + 1];
    for row in events {
        let last = row.iter().rposition(|&p| p > 0.0);
        if let Some(last) = last {
            let mut st = state.clone();
            for (d, &p) in row.iter().enumerate().take(last + 1) {
                if p > 0.0 {
                    for (r, &s) in st.iter().enumerate() {
                        fin[r] += p * s;
                    }
                }
                if d < last {
                    step(&st, &mut next, dev.0, dev.1, w);
                    std::mem::swap(&mut st, &mut next);
                }
            }
        }
        step(&state, &mut next, normal.0, normal.1, w);
        std::mem::swap(&mut state, &mut next);
    }
    fin
}

/// The damage events one attack makes, counted (every event has the same kernel): `pe` is
/// P(a hit rolling to wound becomes an event).
fn events_counted(
    pa: &PerAttack,
    pe: f64,
    p_miss: f64,
    sustained: &[f64],
    lethal: bool,
) -> Vec<f64> {
    let mut f = vec![p_miss + pa.p_hit * (1.0 - pe), pa.p_hit * pe];
    if pa.p_crit_hit > 0.0 {
        let pc = if lethal { pa.p_unsaved } else { pe };
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
    f
}

/// The damage events one attack makes as joint (normal, devastating) counts.
fn events_joint(
    pa: &PerAttack,
    p_normal: f64,
    p_dev: f64,
    p_miss: f64,
    sustained: &[f64],
    lethal: bool,
) -> Grid {
    // One hit rolling to wound, and a lethal Critical Hit (wounds, never devastating).
    let to_wound: Grid = vec![vec![1.0 - p_normal - p_dev, p_dev], vec![p_normal, 0.0]];
    let auto: Grid = vec![vec![1.0 - pa.p_unsaved], vec![pa.p_unsaved]];
    let mut f: Grid = vec![vec![p_miss]];
    add_scaled(&mut f, pa.p_hit, &to_wound);
    if pa.p_crit_hit > 0.0 {
        let mut extra: Grid = vec![vec![0.0]];
        let mut power: Grid = vec![vec![1.0]];
        for (x, &px) in sustained.iter().enumerate() {
            if x > 0 {
                power = conv2(&power, &to_wound);
            }
            if px > 0.0 {
                add_scaled(&mut extra, px, &power);
            }
        }
        let crit = conv2(if lethal { &auto } else { &to_wound }, &extra);
        add_scaled(&mut f, pa.p_crit_hit, &crit);
    }
    f
}

pub(crate) fn run(plan: &Plan) -> Outcome {
    let pa = per_attack(plan);
    // What one hit that rolls to wound becomes: an unsaved normal wound (`p_normal`) or a
    // Devastating Wounds attack (`p_dev`, no save).
    let p_dev = if plan.devastating {
        pa.p_crit_wound
    } else {
        0.0
    };
    let p_wounds_per_roll = pa.p_wound + pa.p_crit_wound;
    let p_normal = (p_wounds_per_roll - p_dev) * pa.p_unsaved;
    let p_miss = 1.0 - pa.p_hit - pa.p_crit_hit;
    let sustained = plan
        .sustained
        .map(|d| d.distribution())
        .unwrap_or_else(|| vec![1.0]);
    let extra_hits_mean = mean_of(&sustained);
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

    let w = plan.wounds as usize;
    let total = plan.models as usize * w;
    let dmg = plan.damage_distribution();
    let normal = post_fnp(&dmg, plan.fnp_ignore(), w);
    // Devastating Wounds with a Feel No Pain of their own: a second kernel, counted jointly.
    let fin = if p_dev > 0.0 && plan.fnp_mortal_ignore() != plan.fnp_ignore() {
        let mortal = post_fnp(&dmg, plan.fnp_mortal_ignore(), w);
        let f = events_joint(&pa, p_normal, p_dev, p_miss, &sustained, plan.lethal);
        // The volley's events: Σ_n P(A = n) · f^{*n}, jointly.
        let mut events: Grid = vec![vec![0.0]];
        let mut fn_: Grid = vec![vec![1.0]];
        for (n, &pn) in attacks.iter().enumerate() {
            if n > 0 {
                fn_ = conv2(&fn_, &f);
            }
            if pn > 0.0 {
                add_scaled(&mut events, pn, &fn_);
            }
        }
        chain_two(
            &events,
            (&normal.0, &normal.1),
            (&mortal.0, &mortal.1),
            total,
            w,
        )
    } else {
        // One kernel for every event: count events only (the order does not matter).
        let f = events_counted(&pa, p_normal + p_dev, p_miss, &sustained, plan.lethal);
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
        chain_one(&events, &normal.0, &normal.1, total, w)
    };

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
        expected_hazardous_mortal_wounds: plan.hazardous.map(|h| f64::from(plan.attackers) * h),
    }
}
