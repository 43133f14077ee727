//! `cogitator explain` on untrusted datasets: source files are read only under `--inputs`, only
//! when regular and as recorded (size and sha256); the excerpt of a value is its own line; names
//! in a path match ignoring case, with suggestions; a path of thousands of dots answers at once.

use crate::util;
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary with a hang guard (a test harness limit, not a measurement): the child is
/// killed and the test fails when it has not finished after 10 s.
fn cogitator(args: &[&str]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cogitator"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run cogitator");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("cogitator {args:?} did not finish in 10 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().expect("output");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn sha(bytes: &[u8]) -> String {
    cogitator::source::sha256_hex(bytes)
}

/// A one-datasheet dataset (made-up values) whose sources are `sources`.
fn dataset(sources: Value) -> Value {
    json!({
      "datasheets": [{
        "id": "10e:tyranids:carnifexes", "name": "Carnifexes", "edition": "10e",
        "faction": "Tyranids", "sources": sources, "base_size": "105 x 70mm",
        "models": [{"name": "Carnifex", "M": "8\"", "T": "9", "Sv": "3+", "W": "8", "Ld": "3+",
                    "OC": "3", "at": {"file": "unit.cat", "line": 2}}],
        "invulnerable_save": null, "invulnerable_save_condition": null,
        "weapons": [
          {"name": "Heavy venom cannon", "type": "ranged", "range": "36\"", "A": "D3", "skill": "4+",
           "S": "9", "AP": "-2", "D": "3", "keywords": ["BLAST"], "at": {"file": "unit.html", "line": 1}},
          {"name": "Storm bolter", "type": "ranged", "range": "24\"", "A": "2", "skill": "4+",
           "S": "4", "AP": "0", "D": "1", "keywords": ["RAPID FIRE 2"], "at": {"file": "unit.txt", "line": 3}},
          {"name": "Bolt rifle", "type": "ranged", "range": "24\"", "A": "2", "skill": "4+",
           "S": "4", "AP": "-1", "D": "1", "keywords": [], "at": {"file": "unit.txt", "line": 10}}
        ],
        "abilities": [{"name": "Enraged Reserves", "group": "datasheet", "tags": [], "parameter": null,
                       "rule_id": null, "text": "Each time this unit makes a Charge move, it's fine."},
                      {"name": "Synapse [Aura]", "group": "faction", "tags": [], "parameter": null,
                       "rule_id": null, "text": "Within 6\" of this unit."}],
        "wargear_options": [], "unit_composition": ["1-2 Carnifexes"], "equipment": [],
        "points": [{"models": 1, "points": 115}, {"models": 2, "points": 230}],
        "damaged": null, "special_rules": [], "leads": [],
        "keywords": ["MONSTER"], "model_keywords": [], "faction_keywords": ["TYRANIDS"],
        "stratagems": []
      }],
      "stratagems": [], "rules": [], "enhancements": [], "detachments": [], "diagnostics": []
    })
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// A dataset from a pull request names files outside `--inputs` (`../`, an absolute path, a
/// symlink out of the root), a device and a FIFO; each with the sha256 of what it points at, so
/// only the path rules keep them out. No byte of them is shown and nothing blocks.
#[test]
fn explain_opened_any_path_a_dataset_names() {
    let tmp = tempfile::tempdir().expect("tmp");
    let secret = "SECRET TOKEN LINE\nSECRET SECOND LINE\n";
    std::fs::write(tmp.path().join("secret.txt"), secret).expect("write");
    let inputs = tmp.path().join("in");
    std::fs::create_dir_all(inputs.join("sub")).expect("mkdir");
    let page = "Carnifexes\nA Carnifex is a living siege engine.\n";
    std::fs::write(inputs.join("sub/page.txt"), page).expect("write");
    let abs = tmp.path().join("secret.txt");
    let (hs, hp) = (sha(secret.as_bytes()), sha(page.as_bytes()));
    let mut srcs = vec![
        json!({"file": "sub/page.txt", "line": 1, "sha256": hp}),
        json!({"file": "../secret.txt", "line": 1, "sha256": hs}),
        json!({"file": "sub/../../secret.txt", "line": 1, "sha256": hs}),
        json!({"file": s(&abs), "line": 1, "sha256": hs}),
        json!({"file": "/dev/zero", "line": 1, "sha256": hs}),
    ];
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&abs, inputs.join("link.txt")).expect("symlink");
        std::os::unix::fs::symlink(tmp.path(), inputs.join("up")).expect("symlink");
        let fifo = inputs.join("fifo.txt");
        let c = std::ffi::CString::new(s(&fifo)).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
        srcs.push(json!({"file": "link.txt", "line": 1, "sha256": hs}));
        srcs.push(json!({"file": "up/secret.txt", "line": 1, "sha256": hs}));
        srcs.push(json!({"file": "fifo.txt", "line": 1, "sha256": hs}));
    }
    let ds = tmp.path().join("ds");
    util::write_dataset(&ds, &dataset(Value::Array(srcs.clone())));
    let (code, out, err) = cogitator(&[
        "explain",
        "10e:tyranids:carnifexes",
        "--dataset",
        s(&ds),
        "--inputs",
        s(&inputs),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("      | A Carnifex is a living siege engine."),
        "{out}"
    );
    assert!(
        !out.contains("SECRET"),
        "a file outside --inputs was shown:\n{out}"
    );
    let refused = out.matches("(no excerpt: ").count();
    assert_eq!(refused, srcs.len() - 1, "{out}");
    assert!(out.contains("not a path inside --inputs"), "{out}");
    #[cfg(unix)]
    assert!(out.contains("not a regular file"), "{out}");
}

/// The excerpt is shown only when the file is the one that was ingested (its sha256); a changed
/// file, or a source the dataset records no sha256 for, shows no excerpt.
#[test]
fn explain_showed_an_excerpt_of_a_changed_file() {
    let tmp = tempfile::tempdir().expect("tmp");
    let inputs = tmp.path().join("in");
    std::fs::create_dir_all(&inputs).expect("mkdir");
    std::fs::write(inputs.join("page.txt"), "Carnifexes\nCHANGED LINE\n").expect("write");
    let ds = tmp.path().join("ds");
    let recorded = sha(b"Carnifexes\nA living siege engine.\n");
    util::write_dataset(
        &ds,
        &dataset(json!([{"file": "page.txt", "line": 2, "sha256": recorded}])),
    );
    let (code, out, _) = cogitator(&[
        "explain",
        "10e:tyranids:carnifexes",
        "--dataset",
        s(&ds),
        "--inputs",
        s(&inputs),
    ]);
    assert_eq!(code, 0);
    assert!(!out.contains("CHANGED"), "{out}");
    assert!(out.contains("changed since it was ingested"), "{out}");
}

/// The files a value's sub-record was read from, as each format prints a profile: a
/// BattleScribe profile (one characteristic a line, `&quot;` for the inch mark), a page row
/// (every cell on one line, after other numbers), a text dump (label and value lines).
fn profile_inputs(dir: &Path) -> Vec<(&'static str, String)> {
    let cat = "<selectionEntry type=\"model\" name=\"Carnifex\">\n\
        <profile name=\"Carnifex\" typeId=\"a1\" typeName=\"Unit\">\n\
        <characteristics>\n\
        <characteristic name=\"M\" typeId=\"b1\">8&quot;</characteristic>\n\
        <characteristic name=\"T\" typeId=\"b2\">9</characteristic>\n\
        <characteristic name=\"SV\" typeId=\"b3\">3+</characteristic>\n\
        <characteristic name=\"W\" typeId=\"b4\">8</characteristic>\n\
        <characteristic name=\"LD\" typeId=\"b5\">3+</characteristic>\n\
        <characteristic name=\"OC\" typeId=\"b6\">3</characteristic>\n\
        </characteristics>\n</profile>\n</selectionEntry>\n"
        .to_string();
    let html = "<tr class=\"wTable\"><td>Heavy venom cannon [blast] 2 4 9</td><td>36&#34;</td>\
        <td>D3</td><td>4+</td><td>9</td><td>-2</td><td>3</td></tr>\n"
        .to_string();
    // `BS 4` as printed, `4+` as stored; the next weapon prints `4+`.
    let txt =
        "RANGED WEAPONS\nRANGE A BS S AP D\nStorm bolter [rapid fire 2]\n24\"\n2\n4\n4\n0\n1\n\
        Bolt rifle\n24\"\n2\n4+\n4\n-1\n1\n"
            .to_string();
    let files = vec![("unit.cat", cat), ("unit.html", html), ("unit.txt", txt)];
    for (f, t) in &files {
        std::fs::write(dir.join(f), t).expect("write");
    }
    files
}

/// `explain ID.models[X].Ld` showed the profile's first lines (`9`, `3+` of `T` and `Sv`) and
/// skipped the `M` line (its `&quot;` looked like markup): each characteristic is shown on its
/// own line, found in order below the sub-record's start, so `Ld 3+` is not `Sv 3+`.
#[test]
fn explain_showed_the_profiles_first_lines_not_the_values_own() {
    let tmp = tempfile::tempdir().expect("tmp");
    let inputs = tmp.path().join("in");
    std::fs::create_dir_all(&inputs).expect("mkdir");
    let files = profile_inputs(&inputs);
    let srcs: Vec<Value> = files
        .iter()
        .map(|(f, t)| json!({"file": f, "line": 1, "sha256": sha(t.as_bytes())}))
        .collect();
    let ds = tmp.path().join("ds");
    util::write_dataset(&ds, &dataset(Value::Array(srcs)));
    let cases: &[(&str, &str)] = &[
        (
            "models[Carnifex].M",
            "unit.cat:4 (its model profile starts at line 2)\n      | 8\"\n",
        ),
        (
            "models[Carnifex].T",
            "unit.cat:5 (its model profile starts at line 2)\n      | 9\n",
        ),
        (
            "models[Carnifex].Sv",
            "unit.cat:6 (its model profile starts at line 2)\n      | 3+\n",
        ),
        (
            "models[Carnifex].Ld",
            "unit.cat:8 (its model profile starts at line 2)\n      | 3+\n",
        ),
        (
            "models[Carnifex].OC",
            "unit.cat:9 (its model profile starts at line 2)\n      | 3\n",
        ),
        (
            "weapons[Storm bolter].skill",
            "unit.txt:6 (its weapon profile starts at line 3)\n      | 4\n",
        ),
        (
            "weapons[Storm bolter].S",
            "unit.txt:7 (its weapon profile starts at line 3)\n      | 4\n",
        ),
        (
            "weapons[Storm bolter].AP",
            "unit.txt:8 (its weapon profile starts at line 3)\n      | 0\n",
        ),
        (
            "weapons[Storm bolter].D",
            "unit.txt:9 (its weapon profile starts at line 3)\n      | 1\n",
        ),
        (
            "weapons[Bolt rifle].AP",
            "unit.txt:15 (its weapon profile starts at line 10)\n      | -1\n",
        ),
        (
            "weapons[Heavy venom cannon].range",
            "unit.html:1\n      | Heavy venom cannon [blast] 2 4 9 36\" D3",
        ),
    ];
    for (field, want) in cases {
        let (code, out, err) = cogitator(&[
            "explain",
            &format!("10e:tyranids:carnifexes.{field}"),
            "--dataset",
            s(&ds),
            "--inputs",
            s(&inputs),
        ]);
        assert_eq!(code, 0, "{field}: {err}");
        assert!(
            out.contains(&format!("the value's own location: {want}")),
            "{field}:\n{out}"
        );
    }
    // In a page row, the `S` after `A D3`, `BS 4+` is the `9` of the S cell, not the one in
    // the name cell before it: the line is the same, and the excerpt centers on the value.
    let (_, out, _) = cogitator(&[
        "explain",
        "10e:tyranids:carnifexes.weapons[Heavy venom cannon].D",
        "--dataset",
        s(&ds),
        "--inputs",
        s(&inputs),
    ]);
    assert!(
        out.contains("the value's own location: unit.html:1\n"),
        "{out}"
    );
}

/// `weapons[storm bolter]` did not find `Storm bolter`: names in a path (weapons, models,
/// points tiers, abilities, fields) match ignoring case; an unknown name lists the nearest. A
/// name with brackets (`Medusa [Legends]`) is one key.
#[test]
fn explain_did_not_find_a_weapon_named_in_another_case() {
    let tmp = tempfile::tempdir().expect("tmp");
    let ds = tmp.path().join("ds");
    util::write_dataset(&ds, &dataset(json!([])));
    let run = |t: &str| cogitator(&["explain", t, "--dataset", s(&ds)]);
    for (path, value) in [
        ("weapons[storm bolter].S", "value: 4\n"),
        ("weapons[STORM BOLTER].s", "value: 4\n"),
        ("points[2 MODELS].points", "value: 230\n"),
        ("abilities[enraged reserves].group", "value: datasheet\n"),
        ("abilities[synapse [aura]].group", "value: faction\n"),
        ("models[carnifex].ld", "value: 3+\n"),
    ] {
        let (code, out, err) = run(&format!("10e:tyranids:carnifexes.{path}"));
        assert_eq!(code, 0, "{path}: {err}");
        assert!(out.contains(value), "{path}:\n{out}");
    }
    let (code, out, _) = run("10e:tyranids:carnifexes.weapons[storm bolter].S");
    assert_eq!(code, 0);
    assert!(
        out.starts_with("10e:tyranids:carnifexes.weapons[Storm bolter].S — datasheet"),
        "the path is shown as the record spells it:\n{out}"
    );
    let (code, _, err) = run("10e:tyranids:carnifexes.weapons[storm boltr].S");
    assert_eq!(code, 1);
    assert!(err.contains("nearest: Storm bolter"), "{err}");
    let (code, _, err) = run("10e:tyranids:carnifexes.weapons[Heavy venom].S");
    assert_eq!(code, 1);
    assert!(err.contains("nearest: Heavy venom cannon"), "{err}");
    let (code, _, err) = run("10e:tyranids:carnifexes.points[3 models]");
    assert_eq!(code, 1);
    assert!(err.contains("nearest: 2 models, 1 model"), "{err}");
}

/// `explain` with a 200-dot id took 8 s (every prefix ending at a dot was looked up by
/// serializing every record): the id is found in one pass over the dataset's ids and the path
/// parsed once, so 200 or 10,000 dots answer at once (a usage error for a malformed path, "no
/// record" or "no field" for one that is well formed).
#[test]
fn explain_with_a_200_dot_id_took_seconds() {
    let tmp = tempfile::tempdir().expect("tmp");
    let ds = tmp.path().join("ds");
    let mut v = dataset(json!([]));
    // Many records, so a lookup per dot would be slow.
    let one = v["datasheets"][0].clone();
    let mut sheets: Vec<Value> = (0..2000)
        .map(|i| {
            let mut d = one.clone();
            d["id"] = json!(format!("10e:tyranids:unit-{i}"));
            d
        })
        .collect();
    sheets.push(one);
    v["datasheets"] = Value::Array(sheets);
    util::write_dataset(&ds, &v);
    for n in [200, 10_000] {
        let dots = ".".repeat(n);
        let (code, _, err) = cogitator(&[
            "explain",
            &format!("10e:tyranids:carnifexes{dots}"),
            "--dataset",
            s(&ds),
        ]);
        assert_eq!(
            code, 2,
            "{n} dots: a malformed path is a usage error: {err}"
        );
        assert!(err.contains("not a field path"), "{err}");
        let (code, _, err) = cogitator(&[
            "explain",
            &format!("10e:tyranids:carnifexes{}", ".a".repeat(n)),
            "--dataset",
            s(&ds),
        ]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("no field a"), "{err}");
        let (code, _, err) = cogitator(&["explain", &"x.".repeat(n), "--dataset", s(&ds)]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("no record"), "{err}");
    }
}

/// A unit page as the site prints it in one of its layouts, abridged: each model's
/// characteristics (`dsCharValue`) come before its name, the second profile without labels.
/// Names and values are made up.
const VALUES_FIRST_PAGE: &str = r#"<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<h1 class="page_header2"><span class="page_header_span2">Astra Militarum</span><span class="page_header_span2"> – Jungle Command</span></h1>
<div class="dsOuterFrame datasheet"><div class="dsH2Header"><div>Jungle Command</div></div>
<div class="dsProfileBaseWrap"><div class="dsProfileWrapLeft">
<div translate="no" class="dsProfileWrap">
<div class="dsCharWrap">
<div class="dsCharName">M</div>
<div class="dsCharFrame"><div class="dsCharValue">6&#34;</div></div>
</div>
<div class="dsCharWrap">
<div class="dsCharName">T</div>
<div class="dsCharFrame"><div class="dsCharValue">3</div></div>
</div>
<div class="dsCharWrap">
<div class="dsCharName">Sv</div>
<div class="dsCharFrame"><div class="dsCharValue">5+</div></div>
</div>
<div class="dsCharWrap">
<div class="dsCharName">W</div>
<div class="dsCharFrame"><div class="dsCharValue">3</div></div>
</div>
<div class="dsCharWrap">
<div class="dsCharName">Ld</div>
<div class="dsCharFrame"><div class="dsCharValue">7+</div></div>
</div>
<div class="dsCharWrap">
<div class="dsCharName">OC</div>
<div class="dsCharFrame"><div class="dsCharValue">1</div></div>
</div>
</div></div>
<div class="dsProfileWrapRight">
<span class="dsModelName">JUNGLE COMMANDER</span><span class="dsModelBase">(⌀25mm)</span>
</div>
</div><div class="dsProfileBaseWrap"><div class="dsProfileWrapLeft">
<div translate="no" class="dsProfileWrap">
<div class="dsCharWrap">
<div class="dsCharFrame"><div class="dsCharValue">6&#34;</div></div>
</div>
<div class="dsCharWrap">
<div class="dsCharFrame"><div class="dsCharValue">3</div></div>
</div>
<div class="dsCharWrap">
<div class="dsCharFrame"><div class="dsCharValue">5+</div></div>
</div>
<div class="dsCharWrap">
<div class="dsCharFrame"><div class="dsCharValue">1</div></div>
</div>
<div class="dsCharWrap">
<div class="dsCharFrame"><div class="dsCharValue">7+</div></div>
</div>
<div class="dsCharWrap">
<div class="dsCharFrame"><div class="dsCharValue">1</div></div>
</div>
</div></div>
<div class="dsProfileWrapRight">
<span class="dsModelName">JUNGLE VETERAN</span><span class="dsModelBase">(⌀25mm)</span>
</div>
</div>
<div class="dsHeader">KEYWORDS: INFANTRY, JUNGLE COMMAND</div>
</div>
</body></html>"#;

/// On a page that prints a profile's values before the model's name, the profile's `at` was
/// the name's line, below every value (the values are too short to find, so the row took the
/// line the name search left): the profile is located at its first value, in page order, and
/// `explain` shows each characteristic's own line (`W 1` of the second model, not `T 3`).
#[test]
fn a_page_profile_printed_before_its_name_was_located_at_the_name() {
    let file = "jungle-command.html";
    let ds = crate::util::ingest_in_memory(&[(file, VALUES_FIRST_PAGE.as_bytes())]);
    let sheet = ds
        .datasheets
        .iter()
        .find(|d| d.name.as_deref() == Some("Jungle Command"))
        .expect("the datasheet");
    let lines: Vec<&str> = VALUES_FIRST_PAGE.lines().collect();
    let value_lines: Vec<u32> = (1..=lines.len() as u32)
        .filter(|n| lines[*n as usize - 1].contains("dsCharValue"))
        .collect();
    let ats: Vec<(Option<&str>, u32)> = sheet
        .models
        .iter()
        .map(|m| (m.name.as_deref(), m.at.line))
        .collect();
    assert_eq!(
        ats,
        [
            (Some("JUNGLE COMMANDER"), value_lines[0]),
            (Some("JUNGLE VETERAN"), value_lines[6])
        ],
        "each profile at its first value"
    );
    let tmp = tempfile::tempdir().expect("tmp");
    std::fs::write(tmp.path().join(file), VALUES_FIRST_PAGE).expect("write");
    let id = sheet.id.clone();
    let loaded = cogitator::dataset::LoadedDataset::from(ds);
    for (model, field, n) in [
        ("JUNGLE VETERAN", "W", 9),
        ("Jungle veteran", "T", 7),
        ("JUNGLE COMMANDER", "M", 0),
        ("JUNGLE COMMANDER", "OC", 5),
    ] {
        let out = cogitator::cli::explain::explain(
            &loaded,
            &format!("{id}.models[{model}].{field}"),
            tmp.path(),
        )
        .expect("explained");
        let want = format!("the value's own location: {file}:{}", value_lines[n]);
        assert!(out.contains(&want), "{model} {field}: {want}\n{out}");
    }
}
