//! Developer tool: prints the IR blocks a decoder produces for one file, one per line
//! (`line kind region class | text`). `cargo run --example dump_ir -- FILE`.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: dump_ir FILE");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let src = cogitator::source::SourceFile::new(path.clone(), bytes);
    let decoded = cogitator::decode::decode(&src);
    for d in &decoded.diagnostics {
        eprintln!("{d:?}");
    }
    let Some(doc) = decoded.document else { return };
    for (k, v) in &doc.meta {
        println!("meta {k} = {v}");
    }
    for b in &doc.blocks {
        println!(
            "{:>6} {:?} {:?} {} | {}",
            b.line(),
            b.kind,
            b.region,
            b.class.map_or("-", |c| c.as_str()),
            b.text
        );
    }
}
