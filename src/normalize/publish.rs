//! The published contract: JSON Schema 2020-12 documents generated from `schemas/*.yaml`, and
//! validators compiled from them (the `jsonschema` crate).
//!
//! Owns the YAML → JSON Schema mapping and the `output/schema/<record>.schema.json` files.
//! Each schema is self-contained (shared definitions inlined under `$defs`) so any JSON Schema
//! tool can use it alone. A characteristic's `pattern` is the union of its per-edition grammars.
//! A profile (model, weapon) is `anyOf` its editions' shapes (the edition's characteristics
//! required, with their exact patterns; other editions' absent), and a record carrying
//! `edition` (the datasheet) adds `if edition = E then` the exact shape and grammars of E for
//! everything it nests. Must not read or write files.

use super::schema::{contract, edition_ids, Contract, Def, Field, Kind, Param};
use crate::model::ProfileKind;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// JSON Schema dialect of every published schema.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The union of one characteristic's grammars over every edition, anchored.
pub fn characteristic_pattern(c: &Contract, name: &str) -> Option<String> {
    let mut alts: Vec<String> = Vec::new();
    for ((_, n), g) in &c.grammars {
        if n != name {
            continue;
        }
        for a in g.alts.iter().map(super::grammar::Alt::regex) {
            if !alts.contains(&a) {
                alts.push(a);
            }
        }
    }
    (!alts.is_empty()).then(|| format!("^(?:{})$", alts.join("|")))
}

fn with_null(mut s: Map<String, Value>, nullable: bool) -> Value {
    if !nullable {
        return Value::Object(s);
    }
    if let Some(Value::String(t)) = s.get("type").cloned() {
        s.insert("type".into(), json!([t, "null"]));
    }
    if let Some(Value::Array(mut e)) = s.get("enum").cloned() {
        e.push(Value::Null);
        s.insert("enum".into(), Value::Array(e));
    }
    if let Some(r) = s.remove("$ref") {
        let mut outer = Map::new();
        if let Some(d) = s.remove("description") {
            outer.insert("description".into(), d);
        }
        outer.insert("anyOf".into(), json!([{ "$ref": r }, { "type": "null" }]));
        return Value::Object(outer);
    }
    Value::Object(s)
}

fn field_schema(c: &Contract, f: &Field, refs: &mut BTreeSet<String>) -> Value {
    let mut s = Map::new();
    if let Some(d) = &f.description {
        s.insert("description".into(), json!(d));
    }
    match f.kind {
        Kind::String => {
            s.insert("type".into(), json!("string"));
            if let Some(p) = &f.pattern {
                s.insert("pattern".into(), json!(format!("^(?:{})$", p.value)));
            }
            if let Some(ch) = &f.characteristic {
                if let Some(p) = characteristic_pattern(c, &ch.value) {
                    s.insert("pattern".into(), json!(p));
                }
                s.insert(
                    "$comment".into(),
                    json!(format!(
                        "characteristic `{}`: exact grammar per edition in schemas/characteristics.yaml",
                        ch.value
                    )),
                );
            }
            if f.keyword.is_some() {
                s.insert("minLength".into(), json!(1));
                s.insert("pattern".into(), json!(r"^\S(?:.*\S)?$"));
                s.insert(
                    "$comment".into(),
                    json!("weapon ability: canonical spelling of schemas/keywords.yaml, or verbatim when outside the vocabulary"),
                );
            }
        }
        Kind::Integer => {
            s.insert("type".into(), json!("integer"));
            if let Some(m) = f.minimum {
                s.insert("minimum".into(), json!(m));
            }
        }
        Kind::Number => {
            s.insert("type".into(), json!("number"));
        }
        Kind::Boolean => {
            s.insert("type".into(), json!("boolean"));
        }
        Kind::Array => {
            s.insert("type".into(), json!("array"));
            if let Some(items) = &f.items {
                s.insert("items".into(), field_schema(c, items, refs));
            }
        }
        Kind::Object => match &f.reference {
            Some(r) => {
                refs.insert(r.value.clone());
                s.insert("$ref".into(), json!(format!("#/$defs/{}", r.value)));
            }
            None => {
                s.insert("type".into(), json!("object"));
                if let Some(m) = &f.map_of {
                    refs.insert(m.value.clone());
                    s.insert(
                        "additionalProperties".into(),
                        json!({ "$ref": format!("#/$defs/{}", m.value) }),
                    );
                }
                if let Some(k) = &f.key_pattern {
                    s.insert(
                        "propertyNames".into(),
                        json!({ "pattern": format!("^(?:{})$", k.value) }),
                    );
                }
            }
        },
    }
    if let Some(values) = &f.values {
        s.insert("enum".into(), json!(values));
    }
    with_null(s, f.nullable)
}

fn object_schema(c: &Contract, d: &Def, refs: &mut BTreeSet<String>) -> Map<String, Value> {
    let mut o = Map::new();
    if let Some(t) = &d.title {
        o.insert("title".into(), json!(t));
    }
    if let Some(t) = &d.description {
        o.insert("description".into(), json!(t));
    }
    o.insert("type".into(), json!("object"));
    let mut props = Map::new();
    let mut required = Vec::new();
    let profile_first = d.profile.as_ref().is_some_and(|p| p.after.is_none());
    if profile_first {
        profile_properties(c, d, &mut props);
    }
    for f in &d.fields {
        props.insert(f.name.clone(), field_schema(c, f, refs));
        if !f.optional {
            required.push(json!(f.name));
        }
        if d.profile.as_ref().and_then(|p| p.after.as_ref()) == Some(&f.name) {
            profile_properties(c, d, &mut props);
        }
    }
    o.insert("properties".into(), Value::Object(props));
    o.insert("required".into(), Value::Array(required));
    o.insert("additionalProperties".into(), json!(false));
    if let Some(p) = &d.profile {
        // Which characteristics a profile has depends on its edition, which the profile does
        // not carry: it is one of the editions' profiles (the datasheet schema says which).
        let shapes: Vec<Value> = edition_ids()
            .map(|e| {
                let mut shape = profile_constraints(c, p.kind, e);
                shape.insert("title".into(), json!(format!("{e} {}", kind_name(p.kind))));
                Value::Object(shape)
            })
            .collect();
        o.insert("anyOf".into(), Value::Array(shapes));
    }
    o
}

fn kind_name(k: ProfileKind) -> &'static str {
    match k {
        ProfileKind::Model => "model profile",
        ProfileKind::Weapon => "weapon profile",
    }
}

/// The properties of every characteristic any edition prints on the def's profile line:
/// nullable strings following the union of their grammars.
fn profile_properties(c: &Contract, d: &Def, props: &mut Map<String, Value>) {
    let Some(p) = &d.profile else { return };
    for name in c.profile_union(p.kind) {
        let mut s = Map::new();
        s.insert("type".into(), json!(["string", "null"]));
        if let Some(pat) = characteristic_pattern(c, &name) {
            s.insert("pattern".into(), json!(pat));
        }
        s.insert(
            "$comment".into(),
            json!(format!(
                "characteristic `{name}`: present on the profiles of the editions that print it; exact grammar per edition in schemas/characteristics.yaml"
            )),
        );
        props.insert(name, Value::Object(s));
    }
}

/// One edition's profile line of `kind`: its characteristics required, each with its exact
/// pattern, the other editions' characteristics absent.
fn profile_constraints(c: &Contract, kind: ProfileKind, edition: &str) -> Map<String, Value> {
    let fields = c.profile_fields(edition, kind);
    let mut props = Map::new();
    for name in c.profile_union(kind) {
        let v = if fields.contains(&name) {
            match c.grammar(edition, &name) {
                Some(g) => json!({ "pattern": g.pattern }),
                None => json!(true),
            }
        } else {
            json!(false)
        };
        props.insert(name, v);
    }
    let mut o = Map::new();
    o.insert("properties".into(), Value::Object(props));
    o.insert("required".into(), json!(fields));
    o
}

/// Constraints on `d` (and the objects it nests) from the grammars of one edition: each
/// characteristic's exact pattern. `None` when nothing applies.
fn edition_constraints(c: &Contract, d: &Def, edition: &str, depth: usize) -> Option<Value> {
    if depth > 8 {
        return None;
    }
    let mut props: Map<String, Value> = d
        .fields
        .iter()
        .filter_map(|f| field_constraints(c, f, edition, depth).map(|v| (f.name.clone(), v)))
        .collect();
    let mut o = Map::new();
    if let Some(p) = &d.profile {
        let mut shape = profile_constraints(c, p.kind, edition);
        if let Some(Value::Object(pp)) = shape.remove("properties") {
            props.extend(pp);
        }
        o.extend(shape);
    }
    if props.is_empty() && o.is_empty() {
        return None;
    }
    let mut out = Map::new();
    out.insert("properties".into(), Value::Object(props));
    out.extend(o);
    Some(Value::Object(out))
}

fn field_constraints(c: &Contract, f: &Field, edition: &str, depth: usize) -> Option<Value> {
    if let Some(ch) = &f.characteristic {
        let g = c.grammar(edition, &ch.value)?;
        return Some(json!({ "pattern": g.pattern }));
    }
    match f.kind {
        Kind::Object => {
            let def = c.def(&f.reference.as_ref()?.value)?;
            edition_constraints(c, def, edition, depth + 1)
        }
        Kind::Array => {
            let inner = field_constraints(c, f.items.as_ref()?, edition, depth)?;
            Some(json!({ "items": inner }))
        }
        _ => None,
    }
}

/// The JSON Schema of one record type, or `None` if `schemas/` has no such record.
pub fn json_schema(c: &Contract, record: &str) -> Option<Value> {
    let d = c.def(record)?;
    let mut refs = BTreeSet::new();
    let body = object_schema(c, d, &mut refs);
    let mut defs = BTreeMap::new();
    let mut todo: Vec<String> = refs.iter().cloned().collect();
    while let Some(name) = todo.pop() {
        if defs.contains_key(&name) || name == record {
            continue;
        }
        let Some(def) = c.def(&name) else { continue };
        let mut more = BTreeSet::new();
        defs.insert(
            name.clone(),
            Value::Object(object_schema(c, def, &mut more)),
        );
        todo.extend(more);
    }
    let mut root = Map::new();
    root.insert("$schema".into(), json!(DIALECT));
    root.insert(
        "$comment".into(),
        json!(format!(
            "cogitator output contract v{}; generated from schemas/*.yaml, do not edit",
            crate::model::CONTRACT_VERSION
        )),
    );
    root.extend(body);
    // Records that carry their edition get the edition-exact grammars as well.
    if d.fields.iter().any(|f| f.name == "edition") {
        let rules: Vec<Value> = edition_ids()
            .filter_map(|e| {
                let then = edition_constraints(c, d, e, 0)?;
                Some(json!({
                    "if": { "properties": { "edition": { "const": e } }, "required": ["edition"] },
                    "then": then,
                }))
            })
            .collect();
        if !rules.is_empty() {
            root.insert("allOf".into(), Value::Array(rules));
        }
    }
    if !defs.is_empty() {
        root.insert("$defs".into(), json!(defs));
    }
    Some(Value::Object(root))
}

/// The published files: `("schema/<record>.schema.json", contents)` for every record, then
/// `schema/weapon_keywords.json` (the 10th-edition vocabulary) and one
/// `schema/weapon_keywords-<edition>.json` per edition with its own (`11e`).
pub fn files() -> Vec<(String, String)> {
    let c = contract();
    let mut out: Vec<(String, String)> = c
        .records
        .iter()
        .filter_map(|r| {
            json_schema(c, r).map(|s| (format!("schema/{r}.schema.json"), crate::emit::to_json(&s)))
        })
        .collect();
    out.push((
        "schema/weapon_keywords.json".to_string(),
        crate::emit::to_json(&vocabulary_json(c)),
    ));
    for (edition, v) in &c.vocabularies {
        out.push((
            format!("schema/weapon_keywords-{edition}.json"),
            crate::emit::to_json(&vocabulary_file_json(
                v,
                &format!("keywords-{edition}.yaml"),
            )),
        ));
    }
    out
}

/// The regular expression of one vocabulary keyword's canonical spellings (anchored).
pub fn keyword_pattern(k: &super::schema::KeywordDef) -> String {
    let name = super::grammar::escape(&k.name.value);
    match k.parameter {
        Param::None => format!("^{name}$"),
        Param::Amount => format!("^{name} (?:[1-9][0-9]*|{})$", super::grammar::DICE_RE),
        Param::Anti => "^ANTI-[A-Z0-9'][A-Z0-9' -]* [2-6]\\+$".to_string(),
        Param::OptionalAmount => {
            format!("^{name}(?: (?:[1-9][0-9]*|{}))?$", super::grammar::DICE_RE)
        }
    }
}

/// `schema/weapon_keywords.json`: the weapon-ability vocabulary for consumers (canonical name,
/// printed form, parameter grammar and pattern, rule id, aliases seen in real data). A keyword on
/// a weapon that matches none of these patterns is a datasheet-unique ability kept verbatim.
pub fn vocabulary_json(c: &Contract) -> Value {
    vocabulary_file_json(&c.vocabulary, "keywords.yaml")
}

/// One vocabulary's published form (see [`vocabulary_json`]), generated from `schemas/{file}`.
fn vocabulary_file_json(v: &super::schema::Vocabulary, file: &str) -> Value {
    let keywords: Vec<Value> = v
        .keywords
        .iter()
        .map(|k| {
            json!({
                "name": k.name.value,
                "form": k.form,
                "parameter": match k.parameter {
                    Param::None => "none",
                    Param::Amount => "amount",
                    Param::Anti => "anti",
                    Param::OptionalAmount => "optional_amount",
                },
                "pattern": keyword_pattern(k),
                "rule_id": v.rule_id(k),
                "aliases": k.aliases,
            })
        })
        .collect();
    json!({
        "$comment": format!("cogitator weapon-ability vocabulary; generated from schemas/{file}, do not edit"),
        "order": v.order.value,
        "keywords": keywords,
    })
}

/// The compiled validator of one record type, built the first time it is asked for (once per
/// process): a run compiles only the record types it checks (not `ability` or
/// `weapon_profile`, which `datasheet` holds).
pub fn validator(record: &str) -> Option<&'static jsonschema::Validator> {
    type Slots = BTreeMap<String, OnceLock<Option<jsonschema::Validator>>>;
    static V: OnceLock<Slots> = OnceLock::new();
    let slots = V.get_or_init(|| {
        (contract().records.iter())
            .map(|r| (r.clone(), OnceLock::new()))
            .collect()
    });
    slots
        .get(record)?
        .get_or_init(|| {
            let s = json_schema(contract(), record)?;
            // Generated from the embedded schemas, which the tests compile: not input data.
            let v = jsonschema::draft202012::new(&s)
                .unwrap_or_else(|e| panic!("generated schema {record} does not compile: {e}"));
            Some(v)
        })
        .as_ref()
}

/// Validates one JSON value against a record schema: the errors, as `path: message`.
pub fn validate(record: &str, value: &Value) -> Vec<String> {
    let Some(v) = validator(record) else {
        return vec![format!("no schema for record type `{record}`")];
    };
    v.iter_errors(value)
        .map(|e| {
            let path = e.instance_path().to_string();
            let path = if path.is_empty() {
                "/".to_string()
            } else {
                path
            };
            format!("{path}: {e}")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_record_schema_compiles() {
        let c = contract();
        for r in &c.records {
            let s = json_schema(c, r).expect("schema");
            jsonschema::draft202012::new(&s).expect("compiles");
            assert!(validator(r).is_some());
        }
    }

    #[test]
    fn characteristic_patterns_follow_the_grammar() {
        let s = json_schema(contract(), "weapon_profile").expect("schema");
        let ap = &s["properties"]["AP"];
        assert!(
            s["anyOf"].is_array(),
            "a profile is one of its editions' shapes"
        );
        let v = jsonschema::draft202012::new(ap).expect("compiles");
        assert!(v.is_valid(&json!("-2")));
        assert!(v.is_valid(&json!(null)));
        assert!(!v.is_valid(&json!("+1")));
    }
}
