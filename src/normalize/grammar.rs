//! Value grammars: the canonical forms a characteristic may take, and the fixes that turn a raw
//! value into one of them.
//!
//! Owns [`Alt`] (one alternative of a grammar as written in `schemas/characteristics.yaml`),
//! [`Grammar`] (the alternatives of one characteristic in one edition, compiled to one anchored
//! regular expression that is also published in the JSON Schemas), typography folding and
//! [`canonicalize`]. Pure: it must not read files, emit diagnostics or guess a value; a value no
//! listed fix makes canonical is [`Outcome::Broken`] and is left as it was.

use crate::diag::Code;
use regex::Regex;
use serde::Deserialize;
use serde_saphyr::Spanned;
use std::sync::OnceLock;

/// One alternative of a value grammar.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Alt {
    /// Exactly this text (`Melee`, `N/A`, `-`).
    Literal(String),
    /// A plain integer written as a string, within optional bounds.
    Number {
        #[serde(default)]
        min: Option<i64>,
        #[serde(default)]
        max: Option<i64>,
    },
    /// A roll `N+`, `min <= N <= max`.
    Roll { min: u32, max: u32 },
    /// A distance `N"`; with `plus`, also `N+"`.
    Inches {
        #[serde(default)]
        min: u32,
        #[serde(default)]
        plus: bool,
    },
    /// A dice expression: `D3`, `D6`, `2D6`, `D6+1`, `2D6+3`.
    Dice,
    /// A regular expression without anchors.
    Pattern(Spanned<String>),
}

/// The canonical dice expression, as a regular expression.
pub const DICE_RE: &str = r"(?:[2-9]|[1-9][0-9]+)?D(?:3|6)(?:\+[1-9][0-9]*)?";

/// Escapes the ECMA-262 syntax characters only, so the result is valid both for the `regex`
/// crate and for JSON Schema tools that compile patterns in Unicode mode (where `\-` is an error).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\^$.|?*+()[]{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn alternation(items: impl IntoIterator<Item = String>) -> String {
    let v: Vec<String> = items.into_iter().collect();
    format!("(?:{})", v.join("|"))
}

/// A regex for the integers `min..=max` (enumerated when bounded and small).
fn int_re(min: Option<i64>, max: Option<i64>) -> String {
    match (min, max) {
        (Some(lo), Some(hi)) if hi >= lo && hi - lo <= 40 => {
            alternation((lo..=hi).map(|n| n.to_string()))
        }
        (Some(lo), _) if lo >= 1 => "[1-9][0-9]*".to_string(),
        (Some(0), _) => "(?:0|[1-9][0-9]*)".to_string(),
        _ => "(?:0|-?[1-9][0-9]*)".to_string(),
    }
}

impl Alt {
    /// This alternative as an unanchored regular expression (regex crate and ECMA-262).
    pub fn regex(&self) -> String {
        match self {
            Alt::Literal(l) => escape(l),
            Alt::Number { min, max } => int_re(*min, *max),
            Alt::Roll { min, max } => format!(
                "{}\\+",
                int_re(Some(i64::from(*min)), Some(i64::from(*max)))
            ),
            Alt::Inches { min, plus } => {
                let n = int_re(Some(i64::from(*min)), None);
                if *plus {
                    format!("{n}\\+?\"")
                } else {
                    format!("{n}\"")
                }
            }
            Alt::Dice => DICE_RE.to_string(),
            Alt::Pattern(p) => format!("(?:{})", p.value),
        }
    }

    /// In words, for diagnostics and docs.
    pub fn describe(&self) -> String {
        match self {
            Alt::Literal(l) => format!("`{l}`"),
            Alt::Number { min, max } => match (min, max) {
                (Some(a), Some(b)) => format!("a number {a}..{b}"),
                (Some(a), None) => format!("a number >= {a}"),
                (None, Some(b)) => format!("a number <= {b}"),
                (None, None) => "a number".to_string(),
            },
            Alt::Roll { min, max } => format!("a roll {min}+..{max}+"),
            Alt::Inches { min, plus } => {
                let p = if *plus { " (or `N+\"`)" } else { "" };
                format!("a distance in inches >= {min} (`N\"`){p}")
            }
            Alt::Dice => "a dice expression (`D6`, `2D6`, `D3+3`)".to_string(),
            Alt::Pattern(p) => format!("text matching `{}`", p.value),
        }
    }
}

/// The grammar of one characteristic in one edition.
#[derive(Debug, Clone)]
pub struct Grammar {
    /// `T (10e)`: used in messages.
    pub label: String,
    pub alts: Vec<Alt>,
    /// Spellings the source uses for "no value" (`-` for no invulnerable save): become `null`.
    pub none: Vec<String>,
    /// The anchored regular expression the alternatives compile to.
    pub pattern: String,
    re: Regex,
}

impl Grammar {
    pub fn new(label: String, alts: Vec<Alt>) -> Result<Grammar, regex::Error> {
        let pattern = format!("^{}$", alternation(alts.iter().map(Alt::regex)));
        let re = Regex::new(&pattern)?;
        Ok(Grammar {
            label,
            alts,
            none: Vec::new(),
            pattern,
            re,
        })
    }

    /// With the spellings that mean "no value".
    pub fn with_none(mut self, none: Vec<String>) -> Grammar {
        self.none = none;
        self
    }

    pub fn is_canonical(&self, v: &str) -> bool {
        self.re.is_match(v)
    }

    /// The rule in words: `T (10e): a number >= 1`.
    pub fn describe(&self) -> String {
        let alts: Vec<String> = self.alts.iter().map(Alt::describe).collect();
        format!("{}: {}", self.label, alts.join(", or "))
    }

    fn has_roll(&self) -> bool {
        self.alts.iter().any(|a| matches!(a, Alt::Roll { .. }))
    }
    fn has_number(&self) -> bool {
        self.alts.iter().any(|a| matches!(a, Alt::Number { .. }))
    }
    fn has_inches(&self) -> bool {
        self.alts.iter().any(|a| matches!(a, Alt::Inches { .. }))
    }
    fn has_dice(&self) -> bool {
        self.alts.iter().any(|a| matches!(a, Alt::Dice))
    }
}

/// One change made to a value: the code that counts it, from, to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub code: Code,
    pub from: String,
    pub to: String,
}

/// What [`canonicalize`] made of a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Already canonical: nothing to do.
    Canonical,
    /// Made canonical by the listed fixes; `value` is the result.
    Fixed { value: String, fixes: Vec<Fix> },
    /// The source's spelling of "no value" (`-`): the value becomes `null` (counted as `N105`).
    Null,
    /// Cannot be made canonical: `code` is `N110` (grammar) or `N111` (range); `rule` in words.
    Broken { code: Code, rule: String },
}

/// Typography folding for values: curly quotes and primes to ASCII, dashes and U+2212 to
/// hyphen-minus, non-breaking and thin spaces to spaces, `&#34;`/`&quot;` to `"`, `×` to `x`;
/// whitespace trimmed and collapsed. Never applied to names.
pub fn fold_typography(s: &str) -> String {
    crate::text::fold::fold_value(s)
}

struct Res {
    dice: Regex,
    roll: Regex,
    inches: Regex,
    inches_plus: Regex,
    int: Regex,
}

fn res() -> &'static Res {
    static R: OnceLock<Res> = OnceLock::new();
    R.get_or_init(|| Res {
        dice: Regex::new(r"^(\d*)\s*[dD]\s*(3|6)\s*(?:\+\s*(\d+))?$").expect("static regex"),
        roll: Regex::new(r"^(\d+)\s*\+$").expect("static regex"),
        inches: Regex::new(r#"^(\d+)\s*(?:"|''|in\.?|inch(?:es)?)?$"#).expect("static regex"),
        inches_plus: Regex::new(r#"^(\d+)\s*(?:"\s*\+|\+\s*"|\+\s*''|''\s*\+)$"#)
            .expect("static regex"),
        int: Regex::new(r"^[+-]?\d+$").expect("static regex"),
    })
}

/// The canonical spelling of a loosely written dice expression (`2d6 + 2` → `2D6+2`,
/// `1D6` → `D6`, `D6+0` → `D6`), or `None` if `s` is not one.
pub fn dice_canonical(s: &str) -> Option<String> {
    let c = res().dice.captures(s.trim())?;
    let raw_count = c.get(1).map_or("", |m| m.as_str());
    if !raw_count.is_empty() && raw_count.bytes().all(|b| b == b'0') {
        return None; // `0D6`
    }
    let count = raw_count.trim_start_matches('0');
    let count = if count == "1" { "" } else { count };
    let sides = c.get(2).map_or("", |m| m.as_str());
    let plus = match c.get(3) {
        Some(m) => {
            let p = m.as_str().trim_start_matches('0');
            if p.is_empty() {
                String::new()
            } else {
                format!("+{p}")
            }
        }
        None => String::new(),
    };
    Some(format!("{count}D{sides}{plus}"))
}

/// Turns `raw` into its canonical form under `g`, listing every fix, or says why it cannot.
pub fn canonicalize(g: &Grammar, raw: &str) -> Outcome {
    if g.is_canonical(raw) {
        return Outcome::Canonical;
    }
    let mut fixes: Vec<Fix> = Vec::new();
    let mut v = raw.to_string();
    let step = |fixes: &mut Vec<Fix>, v: &mut String, code: Code, to: String| {
        if to != *v {
            fixes.push(Fix {
                code,
                from: v.clone(),
                to: to.clone(),
            });
            *v = to;
        }
        g.is_canonical(v)
    };
    let done = |fixes: Vec<Fix>, v: String| Outcome::Fixed { value: v, fixes };

    if step(
        &mut fixes,
        &mut v,
        Code::NormTypography,
        fold_typography(raw),
    ) {
        return done(fixes, v);
    }
    if g.none.contains(&v) {
        return Outcome::Null;
    }
    // Literals, case-insensitively; `n/a` spellings; signed zero.
    for a in &g.alts {
        if let Alt::Literal(l) = a {
            let lower = v.to_ascii_lowercase();
            let is_na = l == "N/A" && matches!(lower.as_str(), "na" | "n/a" | "n.a." | "n / a");
            if v.eq_ignore_ascii_case(l) || is_na {
                let to = l.clone();
                if step(&mut fixes, &mut v, Code::NormLiteral, to) {
                    return done(fixes, v);
                }
            }
        }
    }
    if matches!(v.as_str(), "-0" | "+0") && step(&mut fixes, &mut v, Code::NormLiteral, "0".into())
    {
        return done(fixes, v);
    }
    if g.has_dice() {
        if let Some(d) = dice_canonical(&v) {
            if step(&mut fixes, &mut v, Code::NormDice, d) {
                return done(fixes, v);
            }
        }
    }
    if g.has_roll() {
        let to = if let Some(c) = res().roll.captures(&v) {
            Some(format!("{}+", &c[1]))
        } else if !g.has_number() && v.bytes().all(|b| b.is_ascii_digit()) && !v.is_empty() {
            Some(format!("{v}+"))
        } else {
            None
        };
        if let Some(to) = to {
            if step(&mut fixes, &mut v, Code::NormRollPlus, to) {
                return done(fixes, v);
            }
        }
    }
    if g.has_inches() {
        let to = if let Some(c) = res().inches_plus.captures(&v) {
            Some(format!("{}+\"", &c[1]))
        } else if let Some(c) = res().inches.captures(&v) {
            // A bare number is a distance only where the grammar has no plain numbers.
            if v.bytes().all(|b| b.is_ascii_digit()) && g.has_number() {
                None
            } else {
                Some(format!("{}\"", &c[1]))
            }
        } else {
            None
        };
        if let Some(to) = to {
            if step(&mut fixes, &mut v, Code::NormInches, to) {
                return done(fixes, v);
            }
        }
    }
    // Stray spaces (`- 2`, `2 +`).
    let squeezed: String = v.chars().filter(|c| *c != ' ').collect();
    if squeezed != v && g.is_canonical(&squeezed) {
        step(&mut fixes, &mut v, Code::NormLiteral, squeezed);
        return done(fixes, v);
    }
    // A plain number with a redundant sign or leading zeros (`+3`, `04`) where numbers are allowed.
    if g.has_number() && res().int.is_match(&v) {
        if let Ok(n) = v.parse::<i64>() {
            let to = n.to_string();
            if to != v && !v.starts_with('+') && step(&mut fixes, &mut v, Code::NormLiteral, to) {
                return done(fixes, v);
            }
        }
    }
    Outcome::Broken {
        code: broken_code(g, &v),
        rule: g.describe(),
    }
}

/// `N111` when the value has the right shape but a value the rules do not allow, else `N110`.
fn broken_code(g: &Grammar, v: &str) -> Code {
    let int_shape = res().int.is_match(v);
    let roll_shape = res().roll.is_match(v);
    let inch_shape = res().inches.is_match(v) && v.ends_with('"');
    for a in &g.alts {
        match a {
            Alt::Number { .. } if int_shape => return Code::NormOutOfRange,
            Alt::Roll { .. } if roll_shape => return Code::NormOutOfRange,
            Alt::Inches { .. } if inch_shape => return Code::NormOutOfRange,
            _ => {}
        }
    }
    Code::NormGrammar
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(alts: Vec<Alt>) -> Grammar {
        Grammar::new("X (10e)".into(), alts).expect("grammar")
    }

    #[test]
    fn dice_spellings() {
        assert_eq!(dice_canonical("2d6+2").as_deref(), Some("2D6+2"));
        assert_eq!(dice_canonical("1D6").as_deref(), Some("D6"));
        assert_eq!(dice_canonical("d3 + 3").as_deref(), Some("D3+3"));
        assert_eq!(dice_canonical("D6+0").as_deref(), Some("D6"));
        assert_eq!(dice_canonical("0D6"), None);
        assert_eq!(dice_canonical("6"), None);
    }

    #[test]
    fn roll_and_range() {
        let sv = g(vec![Alt::Roll { min: 2, max: 7 }]);
        assert_eq!(canonicalize(&sv, "3+"), Outcome::Canonical);
        assert!(
            matches!(canonicalize(&sv, "3"), Outcome::Fixed { ref value, .. } if value == "3+")
        );
        assert!(matches!(
            canonicalize(&sv, "1+"),
            Outcome::Broken {
                code: Code::NormOutOfRange,
                ..
            }
        ));
        assert!(matches!(
            canonicalize(&sv, "good"),
            Outcome::Broken {
                code: Code::NormGrammar,
                ..
            }
        ));
    }

    #[test]
    fn ap_is_zero_or_negative() {
        let ap = g(vec![Alt::Number {
            min: Some(-6),
            max: Some(0),
        }]);
        assert_eq!(canonicalize(&ap, "-2"), Outcome::Canonical);
        assert!(
            matches!(canonicalize(&ap, "\u{2212}2"), Outcome::Fixed { ref value, .. } if value == "-2")
        );
        assert!(
            matches!(canonicalize(&ap, "-0"), Outcome::Fixed { ref value, .. } if value == "0")
        );
        assert!(matches!(
            canonicalize(&ap, "+1"),
            Outcome::Broken {
                code: Code::NormOutOfRange,
                ..
            }
        ));
    }
}
