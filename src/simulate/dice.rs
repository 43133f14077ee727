//! Dice expressions (`D3`, `D6`, `2D6`, `D6+1`, `D3+3`, `2D6+2`, plain integers): parsing,
//! canonical printing, exact distributions and sampling.
//!
//! Public API reused by the normalization stage. Owns only the expression grammar and its
//! arithmetic; it must not know about weapons, keywords or rules, and does no I/O.

use rand::Rng;
use std::fmt;
use std::str::FromStr;

/// Largest number of dice accepted in one expression (`10D6`).
pub const MAX_DICE: u32 = 10;
/// Largest constant accepted (plain value or modifier).
pub const MAX_CONSTANT: u32 = 999;

/// A dice expression `nDs+k`: `count` dice with `sides` faces plus `modifier`.
/// A plain integer has `count == 0` (and `sides == 0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dice {
    pub count: u32,
    pub sides: u32,
    pub modifier: u32,
}

/// Why a string is not a dice expression. Carries the input as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    #[error("empty dice expression")]
    Empty,
    #[error(
        "not a dice expression: {0:?} (expected D3, D6, 2D6, D6+1, D3+3, 2D6+2 or an integer)"
    )]
    Syntax(String),
    #[error("unsupported die in {0:?}: only D3 and D6 are used")]
    Sides(String),
    #[error("dice expression out of range: {0:?} (at most {MAX_DICE} dice, constants up to {MAX_CONSTANT})")]
    Range(String),
}

impl Dice {
    /// A constant value.
    pub const fn constant(value: u32) -> Dice {
        Dice {
            count: 0,
            sides: 0,
            modifier: value,
        }
    }

    /// Parses a dice expression: case-insensitive, whitespace tolerant (`" d6 + 1 "`).
    pub fn parse(input: &str) -> Result<Dice, DiceError> {
        let s: String = input
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        if s.is_empty() {
            return Err(DiceError::Empty);
        }
        let syntax = || DiceError::Syntax(input.to_string());
        let range = || DiceError::Range(input.to_string());
        let number = |t: &str| -> Result<u32, DiceError> {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            let v: u64 = t.parse().map_err(|_| range())?;
            if v > u64::from(MAX_CONSTANT) {
                return Err(range());
            }
            Ok(v as u32)
        };
        let Some(dpos) = s.find('D') else {
            return Ok(Dice::constant(number(&s)?));
        };
        let (count_str, rest) = (&s[..dpos], &s[dpos + 1..]);
        let count = if count_str.is_empty() {
            1
        } else {
            number(count_str)?
        };
        let (sides_str, modifier) = match rest.split_once('+') {
            Some((a, b)) => (a, number(b)?),
            None => (rest, 0),
        };
        let sides = number(sides_str)?;
        if sides != 3 && sides != 6 {
            return Err(DiceError::Sides(input.to_string()));
        }
        if count == 0 || count > MAX_DICE {
            return Err(range());
        }
        Ok(Dice {
            count,
            sides,
            modifier,
        })
    }

    pub fn is_constant(&self) -> bool {
        self.count == 0
    }

    pub fn min(&self) -> u32 {
        self.count + self.modifier
    }

    pub fn max(&self) -> u32 {
        self.count * self.sides + self.modifier
    }

    pub fn mean(&self) -> f64 {
        f64::from(self.count) * (f64::from(self.sides) + 1.0) / 2.0 + f64::from(self.modifier)
    }

    /// Exact distribution: element `v` is P(value = v), for `v` in `0..=max()`. Sums to 1.
    pub fn distribution(&self) -> Vec<f64> {
        let mut dist = vec![0.0; self.max() as usize + 1];
        let mut acc = vec![1.0];
        if self.count > 0 {
            let p = 1.0 / f64::from(self.sides);
            for _ in 0..self.count {
                let mut next = vec![0.0; acc.len() + self.sides as usize];
                for (v, &q) in acc.iter().enumerate() {
                    for face in 1..=self.sides as usize {
                        next[v + face] += q * p;
                    }
                }
                acc = next;
            }
        }
        for (v, q) in acc.into_iter().enumerate() {
            if q > 0.0 {
                dist[v + self.modifier as usize] += q;
            }
        }
        dist
    }

    /// One random value.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        let mut v = self.modifier;
        for _ in 0..self.count {
            v += rng.random_range(1..=self.sides);
        }
        v
    }
}

impl FromStr for Dice {
    type Err = DiceError;
    fn from_str(s: &str) -> Result<Dice, DiceError> {
        Dice::parse(s)
    }
}

/// Canonical spelling: `D6`, `2D6+2`, `3`.
impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return write!(f, "{}", self.modifier);
        }
        if self.count > 1 {
            write!(f, "{}", self.count)?;
        }
        write!(f, "D{}", self.sides)?;
        if self.modifier > 0 {
            write!(f, "+{}", self.modifier)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_canonical_forms() {
        let cases = [
            (
                "D3",
                Dice {
                    count: 1,
                    sides: 3,
                    modifier: 0,
                },
            ),
            (
                "d6",
                Dice {
                    count: 1,
                    sides: 6,
                    modifier: 0,
                },
            ),
            (
                "2D6",
                Dice {
                    count: 2,
                    sides: 6,
                    modifier: 0,
                },
            ),
            (
                "D6+1",
                Dice {
                    count: 1,
                    sides: 6,
                    modifier: 1,
                },
            ),
            (
                " d3 + 3 ",
                Dice {
                    count: 1,
                    sides: 3,
                    modifier: 3,
                },
            ),
            (
                "2D6+2",
                Dice {
                    count: 2,
                    sides: 6,
                    modifier: 2,
                },
            ),
            ("12", Dice::constant(12)),
            ("0", Dice::constant(0)),
        ];
        for (s, want) in cases {
            assert_eq!(Dice::parse(s), Ok(want), "{s}");
        }
        assert_eq!(
            Dice::parse("2d6+2").map(|d| d.to_string()),
            Ok("2D6+2".into())
        );
    }

    #[test]
    fn rejects_everything_else() {
        for s in [
            "",
            "  ",
            "D",
            "D4",
            "2D",
            "D6-1",
            "-2",
            "1.5",
            "D6+",
            "D6+D3",
            "0D6",
            "11D6",
            "x",
            "1000",
            "99999999999999999999",
        ] {
            assert!(Dice::parse(s).is_err(), "{s:?} accepted");
        }
    }

    #[test]
    fn distributions() {
        let d = Dice::parse("2D6").unwrap().distribution();
        assert_eq!(d.len(), 13);
        assert!((d[7] - 6.0 / 36.0).abs() < 1e-15);
        assert_eq!(d[1], 0.0);
        let d = Dice::parse("D3+3").unwrap().distribution();
        assert_eq!(d.len(), 7);
        assert!((d[4] - 1.0 / 3.0).abs() < 1e-15);
        assert_eq!(Dice::constant(2).distribution(), vec![0.0, 0.0, 1.0]);
        assert!((Dice::parse("2D6+2").unwrap().mean() - 9.0).abs() < 1e-12);
    }
}
