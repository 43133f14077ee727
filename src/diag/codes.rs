//! The one registry of stable diagnostic codes (after ruff's `codes.rs`).
//!
//! Every diagnostic any stage emits has a code from this table. A code, once published, keeps
//! its meaning; retired codes are never reused. Each entry carries a one-line title and an
//! explanation with an example, shown by `cogitator lint --explain CODE` and listed in
//! `docs/diagnostics.md` (a test keeps that file in step with this table).
//!
//! Prefixes name the stage: `S` source (discover/decode), `X` extract, `N` normalize,
//! `D` dedup, `V` validate/simulate, `C` crosscheck (the CSV export), `B` BattleScribe data,
//! `M` the Munitorum Field Manual YAML, `G` the GW app's data, `P` points documents (PDF),
//! `E` errata documents.

use super::Severity;

/// What the registry knows about one code.
#[derive(Debug, Clone, Copy)]
pub struct CodeInfo {
    pub code: Code,
    pub name: &'static str,
    pub severity: Severity,
    pub title: &'static str,
    pub explanation: &'static str,
}

macro_rules! codes {
    ($( $variant:ident = $code:literal, $sev:ident, $title:literal, $expl:literal; )*) => {
        /// A stable diagnostic code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code { $( $variant, )* }

        /// Every code, in code order.
        pub const CODES: &[CodeInfo] = &[
            $( CodeInfo { code: Code::$variant, name: $code, severity: Severity::$sev, title: $title, explanation: $expl }, )*
        ];

        impl Code {
            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $code, )* }
            }
        }
    };
}

impl Code {
    pub fn info(self) -> &'static CodeInfo {
        // CODES is in declaration order, which is the enum's order.
        &CODES[self as usize]
    }

    pub fn parse(s: &str) -> Option<Code> {
        CODES
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(s.trim()))
            .map(|c| c.code)
    }
}

codes! {
    // --- S: discover and decode -------------------------------------------------------------
    SourceUnreadable = "S001", Error, "input file could not be read",
        "The file exists but reading it failed (permissions, I/O error). The run goes on with the other inputs.\nExample: `raw/000.txt: error[S001]: cannot read: Permission denied`";
    SourceEmpty = "S002", Warning, "input file is empty",
        "A zero-byte (or whitespace-only) input yields no records.\nExample: `raw/empty.txt: warning[S002]: empty input`";
    SourceBinary = "S003", Warning, "input is not text",
        "The bytes contain NUL or are mostly control characters, so no decoder applies. Status `skipped`.\nExample: `junk.html: warning[S003]: binary content (NUL bytes), skipped`";
    SourceLossyUtf8 = "S004", Warning, "input is not valid UTF-8",
        "Invalid byte sequences were replaced with U+FFFD before decoding; text near them may be damaged.\nExample: `page.html:12: warning[S004]: 3 invalid UTF-8 sequences replaced`";
    UnsupportedSystem = "S005", Warning, "unsupported game system",
        "The input is for a game system cogitator does not extract (e.g. Age of Sigmar). Nothing is extracted; status `skipped`.\nExample: `aos--skaven--Acolyte-Globadiers.html: warning[S005]: unsupported game system: Age of Sigmar`";
    DuplicateSource = "S006", Info, "input is a byte-identical copy of another input",
        "Two inputs have the same sha256. The first in path order is processed; the copy is listed in the manifest as `duplicate`.\nExample: `faction--captain_test.html: info[S006]: same bytes as space-marines--Captain.html; processed once`";
    UnknownFormat = "S007", Warning, "input format not recognised or not supported yet",
        "Format detection reads the content before any extraction. A file no decoder claims is skipped (status `skipped`) and never turned into records; the message names the format detected: XML (BattleScribe `.cat`/`.gst`), CSV, JSON, PDF, Markdown, UTF-16 text, an image or archive, or unknown bytes. Later versions add decoders for some of these.\nExample: `bsdata/Tyranids.cat: warning[S007]: format not supported yet: xml (BattleScribe catalogue); skipped`";
    TruncatedInput = "S008", Warning, "input looks truncated",
        "The input ends in the middle of a structure (an unclosed HTML document, a table row cut short). What it holds is still read; its manifest status is `partial` (not a failure), and each record it cuts short has its own `X111`.\nExample: `page.html:4012: warning[S008]: document ends inside <table>`";
    ChromeDropped = "S009", Info, "site chrome dropped",
        "Navigation, ads, subscription notes and copyright footers are recognised and dropped. The count per file is in the manifest.\nExample: `raw/004.txt:574: info[S009]: dropped 7 lines of site chrome (Disable Ads / Boosty notice)`";
    UnknownSystem = "S010", Warning, "game system or edition not recognised",
        "Nothing in the content says which game system or edition the input is for; records are extracted with `edition: null` where it matters.\nExample: `raw/x.txt: warning[S010]: no edition markers found`";

    OutputLeftover = "S011", Warning, "leftover of an interrupted run recovered",
        "A previous run was stopped while it replaced the output directory and left `.DIR.tmp-*` or `.DIR.old-*` beside it. The next run (before reading any input) restores the newest `.DIR.old-*` when the output directory itself is missing, removes leftovers it can prove are cogitator's (the `.cogitator-output` marker or a cogitator `manifest.json`), and leaves anything else in place, reported; leftovers of a process still running are not touched. Printed on stderr, not part of the dataset (which depends on the inputs only).\nExample: `warning[S011]: removed leftover /data/.output.tmp-4711 of an interrupted run`";
    InputTooLarge = "S012", Warning, "input larger than the size limit",
        "An input is larger than the per-file limit (default 64 MiB, `--max-file-size`), so it is not read. Status `skipped`.\nExample: `huge.html: warning[S012]: 80.0 MiB is over the 64 MiB limit (--max-file-size); skipped`";
    DocumentTooDeep = "S013", Warning, "markup nested too deeply",
        "The page opens elements deeper than the decoder's limit (512 nested elements, or 32 formatting elements such as `<b>` left open; real pages reach 18 and 2). A linear scan before parsing reads each tag past the limit, and its end tag, as text, so the parser stays linear and the tree shallow; the text before and around the deep part is read as usual. The line is the first tag read as text.\nExample: `page.html:3: warning[S013]: markup nested too deep (more than 512 elements or 32 formatting elements open); 2488 tag(s) past the limit read as text`";
    PathSkipped = "S014", Warning, "path not followed during discovery",
        "A directory could not be listed, a symbolic link points nowhere or back into its own tree, or the path is the output directory of a cogitator run. Discovery goes on with the other paths.\nExample: `data/loop: warning[S014]: symbolic link loop, not followed`";

    PdfUnreadable = "S015", Warning, "PDF could not be read (whole or in part)",
        "The PDF decoder could not parse the file (truncated, a broken cross-reference table, encrypted with a password, objects nested deeper than 64 levels), so nothing in it is read; or a page hit one of the reading limits (4 million operators, 500,000 glyphs, Form XObjects nested 16 deep or drawn 4,096 times), and the rest of that page is not read. Never a crash.\nExample: `packs/cut.pdf: warning[S015]: not a readable PDF (invalid file trailer); nothing read`";
    PdfNoText = "S016", Warning, "PDF page without a text layer",
        "A page draws no text (a scan or a page that is only an image), so nothing on it is read; when no page has text the whole file yields no records. Text in images is not recognised (no OCR).\nExample: `packs/scan.pdf: warning[S016]: no text layer on page(s) 3 (images only); those pages are not read`";
    PdfUnmappedGlyphs = "S017", Info, "PDF glyphs without a Unicode mapping",
        "A font maps some character codes to no text: neither its `ToUnicode` CMap nor its encoding (base encoding and `/Differences` glyph names) names them. Those glyphs are dropped and counted, never guessed.\nExample: `packs/x.pdf: info[S017]: 12 glyph(s) with no Unicode mapping (no ToUnicode entry, no encoding name) dropped`";
    InputPanicked = "S018", Error, "processing this input panicked; it was skipped",
        "A bug in cogitator made a stage panic while it processed this input. The panic is caught per input (as rust-analyzer catches one per request), the input gives no records (status `failed`) and the run goes on with the others. Please report it with the input.\nExample: `raw/dump.txt: error[S018]: internal error while processing this input (extract: index out of bounds); it was skipped`";
    NotARegularFile = "S019", Warning, "input is not a regular file",
        "A path names a device (`/dev/zero`, `/dev/urandom`), a FIFO, a socket or another file that is not a regular file. Such a file has no size to check against `--max-file-size`, may never end or may block forever, so it is not opened. Status `skipped`.\nExample: `/dev/zero: warning[S019]: not a regular file (character device); skipped`";
    BudgetExceeded = "S020", Error, "a per-input work budget was hit",
        "Reading this input would take more work than its size justifies (bytes decompressed, glyphs, link resolutions, nesting, expanded ranges): the limit is a small multiple of the input's size or a fixed cap. Reading stops at the limit; what was read before it is kept and the input is `partial`.\nExample: `packs/x.pdf: error[S020]: decompressed content over the budget (256 MiB for a 1.2 MiB file); the rest of page 3 is not read`";
    NotARulesSource = "S021", Warning, "text has no structure of a rules source",
        "The text decoder found none of the structures a rules dump has (a weapon table, datasheet sections, a glossary of named rules, a 9th-edition or Horus Heresy summary), so the file (a LICENSE, a config file, notes, code) is skipped and gives no records. Status `skipped`.\nExample: `LICENSE: warning[S021]: no rules-source structure found (no weapon table, datasheet section or rule glossary); skipped`";

    UnknownPdfKind = "S022", Warning, "GW PDF of no known kind",
        "A PDF whose content matches none of the kinds the PDF readers know (a faction pack or index cards: datasheet cards with a `M T SV W LD OC` profile and `KEYWORDS:`; a points document: `N models … P pts` lines under faction headings; an errata document: `Target – Section` entries with their instructions). The kind is recognised from the text, never from the file name. The file gives no records and is `skipped` in the manifest.\nExample: `pdf/painting-guide.pdf: warning[S022]: PDF of no known kind (no datasheet card, points list or errata entry); skipped`";
    AmbiguousPdfKind = "S023", Info, "PDF shows the cues of two document kinds",
        "A PDF carries the cues of more than one kind (an errata document titled `INDEX CARDS`, a points list printed inside a faction pack). The first kind in the order errata, points, datasheet cards is read; this note names the other.\nExample: `pdf-errata/ic-errata.pdf: info[S023]: read as errata; it also shows the cues of index cards (title 'INDEX CARDS')`";

    // --- X: extract -------------------------------------------------------------------------
    DatasheetNameMissing = "X101", Warning, "datasheet has no unit name in the source",
        "The dump carries the datasheet's profiles but not its name. The datasheet is kept with `name: null`; the name is never guessed (not from the file name either).\nExample: `raw/000.txt:1: warning[X101]: datasheet has no unit name in the source; kept with name: null`";
    DamagedText = "X102", Warning, "damaged source text",
        "A word is missing where the grammar needs one (`If your Anny Faction is , at the end…`), or a typo is evident. The text is kept as printed; nothing is filled in.\nExample: `raw/000.txt:11: warning[X102]: missing word before ',' in \"Faction is , at\"`";
    RuleNameUnknown = "X103", Warning, "rule paragraph has no name",
        "A glossary paragraph has no name in its source and none could be recovered from evidence (its own text, or the same text named in another source). Kept with `name: null`.\nExample: `raw/003.txt:9: warning[X103]: rule paragraph has no name in the source`";
    WeaponRowIncomplete = "X104", Warning, "weapon profile row is incomplete",
        "A weapon row has fewer characteristic values than its table header. Missing values are `null`.\nExample: `raw/x.txt:7: warning[X104]: weapon 'Lasgun' has 5 of 6 values`";
    PointsUnparsed = "X105", Warning, "points line not understood",
        "A line in the points section did not read as `N model(s) | P`.\nExample: `raw/x.txt:9: warning[X105]: points line not understood: '1 model | ??'`";
    FactionUnknown = "X106", Warning, "faction not found in the content",
        "No sentence or keyword in the source names the faction; `faction: null`. The file name is never used.\nExample: `raw/x.txt: warning[X106]: faction not stated in the content`";
    ScrambledText = "X107", Warning, "text fragments out of order",
        "The source prints the pieces of a paragraph out of order (a sentence start glued to the next paragraph). The pieces are rejoined only where the seam is unambiguous; the record keeps the source line of each piece.\nExample: `raw/000.txt:58: warning[X107]: enhancement text begins on a later line (\"model only. Each time…\")`";
    UnmatchedText = "X108", Info, "paragraph not assigned to a record",
        "A paragraph was read but belongs to no record type the extractor knows; it is counted in the manifest's nothing-lost account.\nExample: `raw/002.txt:40: info[X108]: paragraph not assigned: 'Print on card…'`";
    StratagemIncomplete = "X109", Warning, "stratagem text incomplete",
        "A stratagem card prints its rule without the WHEN/TARGET/EFFECT labels (older pages); the whole text is kept as the effect, WHEN and TARGET stay `null`, and no `X111` is added for them. (A card or list entry with no text at all is `X111`.)\nExample: `grimlog/tyranids--complete-scrape.html:1620: warning[X109]: stratagem 'INSANE BRAVERY' is printed without WHEN/TARGET/EFFECT labels; its text is kept as the effect`";
    ConflictingValues = "X110", Warning, "two sources disagree",
        "The same record was read from two sources with different values. Both values and both files are named, with the value kept and why: the merge policy table of the record type (`src/reconcile/merge.rs`) decides — for datasheets and stratagem CP and category the newer faction pack wins; for enhancement and detachment fields the first source in path order.\nExample: `warning[X110]: Carnifexes points for 2 models: 230 (a.html) vs 180 (b.html); kept 180 (faction pack v1.4 > v1.2)`";

    RequiredTextMissing = "X111", Warning, "record lacks text its kind requires",
        "A record was found but the text that defines it is missing, often because the page is cut off (then the file also has `S008` and the manifest status `partial`). Decided after merging, so a list entry whose card is printed in another file is not reported: a stratagem with no WHEN, TARGET or EFFECT text in any source (kept, the missing parts `null`; one printed without labels, its text kept as the effect, has `X109` instead), an enhancement with no text in any source (kept, `text` empty). A rule name with no text after it is not a record: it is not emitted. Extractors also report what a dump visibly cut short: a Horus Heresy special rule whose text ends on `:` where a table or list was lost (kept as printed), and the last entry of a 9th-edition unit card cut off by the end of the file (its text `null`). Nothing is filled in. Located at the record's first source.\nExample: `chaos-lord-cut.html:814: warning[X111]: stratagem 'BALEFUL BLESSING' (10e:cabal-of-chaos:baleful-blessing) has no WHEN/TARGET/EFFECT text in any source`";
    ScopeUnknown = "X112", Warning, "record's scope not found",
        "A record could not be placed from the content: a stratagem without a group, or a datasheet, enhancement or detachment of a page that names no faction, so its id carries `unknown` as its scope. It is never emitted silently: a stratagem with neither group nor text (a list entry whose card is not in the input) is dropped as a fragment, with the datasheet's reference to it; any other such record is kept under its `unknown` id, and this diagnostic names it.\nExample: `lord-warden.html:8: warning[X112]: stratagem 'LAST ORDERS' names no group and has no text here; fragment dropped`";

    PointsWithoutDatasheet = "X113", Info, "points that price no datasheet of the run",
        "A publication printing points apart from datasheets (the Munitorum Field Manual) prices units no source of the run prints as a datasheet: they stay in `points.json`, no datasheet takes them. One per publication, with the count and the first few names (not one per unit). Ingest the datasheets' source in the same run to give them their points.\nExample: `mfm-11e/data/adeptus-custodes.yaml: info[X113]: 1012 points records of publication 1.1 price no datasheet of this run: Allarus Custodians, Aquilon Custodians, Ares Gunship, …`";

    CardFieldNotRead = "X114", Warning, "datasheet card field found but not read",
        "A PDF card prints a field the reader recognised by its label or position but could not read: an `INVULNERABLE SAVE` label with no value beside it or in the shield. The field is `null`, never guessed; the card's other fields are kept.\nExample: `pdf-index-cards/aeldari.pdf:41: warning[X114]: 'INVULNERABLE SAVE' printed with no value (page 3); invulnerable save left null`";

    // --- N: normalize (schemas, values, keywords) ------------------------------------------
    NormTypography = "N101", Info, "typography folded in a value",
        "A characteristic value or weapon keyword carried typographic characters: curly quotes or primes, en/em dashes, U+2212 minus, non-breaking or thin spaces, HTML entities (`&#34;`). They are folded to ASCII. Names are never folded. One diagnostic per (from, to) per file, with a count.\nExample: `raw/002.txt:14: info[N101]: range '24&#34;' -> '24\"' (3 values)`";
    NormDice = "N102", Info, "dice expression made canonical",
        "Dice are written upper case, without a leading `1` or spaces, and without `+0`: `2d6+2` -> `2D6+2`, `1D6` -> `D6`, `d3 + 3` -> `D3+3`.\nExample: `raw/002.txt:31: info[N102]: A '2d6+2' -> '2D6+2' (1 value)`";
    NormRollPlus = "N103", Info, "`+` added to a roll",
        "A characteristic that is a roll (Sv, BS/WS, Ld in 10th edition, an invulnerable save) was printed without its `+` (`4` for BS 4+), or with a space before it. Canonical rolls are `N+`.\nExample: `Imperium - Grey Knights.cat: info[N103]: skill '4' -> '4+' (2 values)`";
    NormInches = "N104", Info, "inch mark made canonical",
        "Distances are written `N\"` with an ASCII double quote; a bare number in a Range column gets its mark, two apostrophes or `in` become `\"`, and a minimum move `20\"+` is written `20+\"`.\nExample: `raw/x.txt:9: info[N104]: M '20\"+' -> '20+\"' (1 value)`";
    NormLiteral = "N105", Info, "value respelled to its canonical literal",
        "Case and spacing of fixed words and signs: `melee` -> `Melee`, `n/a` -> `N/A`, `-0` -> `0`, `- 2` -> `-2`, `04` -> `4`.\nExample: `raw/002.txt:40: info[N105]: skill 'n/a' -> 'N/A' (4 values)`";
    NormKeywordAlias = "N106", Info, "weapon keyword respelled",
        "A weapon ability in the vocabulary (`schemas/keywords.yaml`) was spelled another way; it is written upper case with its parameter: `Twin Linked` -> `TWIN-LINKED`, `Anti Vehicle 3+` -> `ANTI-VEHICLE 3+`, `Anti-FLY 2` -> `ANTI-FLY 2+`.\nExample: `raw/000.txt:2: info[N106]: keyword 'rapid fire 2' -> 'RAPID FIRE 2' (1 value)`";
    NormKeywordOrder = "N107", Info, "weapon keywords put in canonical order",
        "A weapon's keywords are listed alphabetically by canonical spelling with repeats removed, so the same weapon read from two sources compares equal.\nExample: `raw/x.txt:5: info[N107]: keywords '[PSYCHIC, BLAST]' -> '[BLAST, PSYCHIC]' (1 value)`";
    NormUniqueKeyword = "N108", Info, "weapon ability outside the vocabulary kept verbatim",
        "A bracketed weapon ability that is not in `schemas/keywords.yaml` (a datasheet-unique ability) is kept exactly as printed. Reported once per dataset per spelling, with the number of weapons carrying it and the first file.\nExample: `orks--Zodgrod.html: info[N108]: weapon ability 'ZHADSNARK' is not in the vocabulary; kept verbatim (1 weapon)`";
    NormKeywordParameter = "N109", Error, "weapon keyword parameter malformed",
        "A weapon ability of the vocabulary lacks its parameter or has one its grammar rejects (`RAPID FIRE` without X, `ANTI-INFANTRY` without a roll, `MELTA two`). The weapon profile goes to quarantine.json; the datasheet keeps its other weapons.\nExample: `raw/x.txt:7: error[N109]: weapon 'Meltagun' of 10e:astra-militarum:guardsmen quarantined: keyword 'MELTA' needs a number or dice expression`";
    NormGrammar = "N110", Error, "value does not match its characteristic's grammar",
        "A value no listed normalization makes canonical (`S 8+` on a Chainfist, AP `-` in 10th edition, T `tough`). It is not guessed: the smallest record holding it (weapon profile, model profile, ability; the datasheet for its invulnerable save) goes to quarantine.json with the rule and its source location; the datasheet keeps the rest.\nExample: `raw/x.txt:12: error[N110]: weapon 'Chainfist' of 10e:space-marines:terminator-squad quarantined: S '8+' breaks S (10e): a number >= 1, or a dice expression`";
    NormOutOfRange = "N111", Error, "value outside the range the rules allow",
        "The value has the right shape but the rules do not allow it: T or W below 1, a save outside 2+..7+, a positive AP in 10th edition, a BS of 1+. Quarantined like N110.\nExample: `raw/x.txt:3: error[N111]: model profile of 10e:tyranids:termagants quarantined: Sv '1+' breaks Sv (10e): a roll 2+..7+`";
    NormSchemaInvalid = "N112", Error, "record does not validate against its published schema",
        "Every emitted record is validated against `output/schema/<record>.schema.json` (generated from `schemas/*.yaml`). A record that fails (a missing field, a value of the wrong type or pattern) goes to quarantine.json; `cogitator lint` reports the same for an existing dataset.\nExample: `datasheets.json: error[N112]: datasheet 10e:x:y: /weapons/0/AP: \"+1\" does not match \"^(?:...)$\"`";
    NormDatasetUnreadable = "N113", Error, "dataset file missing or not JSON",
        "`cogitator lint DATASET_DIR` could not read one of the dataset files (`datasheets.json`, `manifest.json`, ...), or it is not JSON of the expected shape.\nExample: `out/rules.json: error[N113]: expected value at line 1 column 1`";
    NormUnitRanges = "N114", Error, "points tiers' unit ranges overlap or do not start at 1",
        "11th edition prices a unit by how many of that datasheet a player takes (`units: {from, to?}` on a points tier). For one model count, the tiers' unit ranges must start at the 1st unit and must not overlap (`to` at least `from`; only the last range may be open). Checked on datasheets' `points` and on `points.json`.\nExample: `out/points.json: error[N114]: points 11e:points:mfm-1-1:adeptus-custodes:custodian-guard: 4 models: units 1-3 and 3+ overlap`";
    NormTranslationKey = "N115", Error, "translation not keyed by a language tag other than English",
        "A record's `translations` are keyed by language tag (`de`, `fr`, `zh`, `pt-BR`); English is the record's own fields and never a translation (`en`, `en-GB`).\nExample: `out/rules.json: error[N115]: rule 11e:core:hit-rolls: translation key 'en' is English, the record's own text`";
    NormRuleHierarchy = "N116", Error, "rule hierarchy broken",
        "A rule's `parent` lists it among its `children` and every child names it as its `parent`; no rule is its own ancestor; a numbered child's `number` extends its parent's (`05.01` under `05`).\nExample: `out/rules.json: error[N116]: rule 11e:core:hit-rolls: parent 11e:core:making-attacks does not list it among its children`";
    NormIdRepeated = "N117", Error, "two records of one file share an id",
        "An id names one record of its file (`datasheets.json`, `rules.json`, `errata.json`, ...); two records with the same id are a defect of the run (two readings of one record are merged before they are written), and a tool keyed by id would keep only one of them.\nExample: `out/errata.json: error[N117]: id 10e:erratum:index-cards-1-0:1 is held by more than one record`";

    // --- D: dedup ----------------------------------------------------------------------------
    RuleConflict = "D201", Warning, "same rule, different text",
        "Two paragraphs name the same rule in the same scope (edition, kind, faction) but their texts differ beyond truncation or typography. Both are kept; the variant whose canonical text sorts first keeps the id, the others get a `~<8 hex digits of the SHA-256 of their canonical text>` suffix.\nExample: `raw/002.txt:154: warning[D201]: rule 'PSYCHIC PHASE' (9e:core:psychic-phase) is printed with different texts; kept as variant 9e:core:psychic-phase~f17df6d0`";

    // --- V: validate and simulate -----------------------------------------------------------
    DiceUnparsed = "V301", Error, "dice expression not understood",
        "A weapon's Attacks or Damage, or the parameter of RAPID FIRE / SUSTAINED HITS / MELTA, is not a dice expression the simulator reads (D3, D6, 2D6, D6+1, D3+3, 2D6+2 or an integer). The profile is not simulated.\nExample: `raw/000.txt:14: error[V301]: datasheet 10e:orks:boyz, weapon 'Choppa': damage (D): not a dice expression: \"D4\"`";
    CharacteristicUnusable = "V302", Error, "weapon or target characteristic missing or not understood",
        "A characteristic the simulator needs (A, BS/WS, S, AP, D; T, Sv, W of a target) is null or not in canonical form. The profile is not simulated.\nExample: `raw/000.txt:14: error[V302]: datasheet 10e:orks:boyz, weapon 'Slugga': AP not understood: \"+1\"`";
    UnknownWeaponKeyword = "V303", Warning, "weapon keyword has no known effect",
        "The simulator does not know this weapon ability (usually a datasheet-unique one); it is ignored and the profile is simulated without it. Reported once per keyword per datasheet.\nExample: `raw/000.txt:14: warning[V303]: datasheet 10e:chaos-daemons:belakor, weapon 'Blade of Shadows': unknown weapon keyword \"SHADOW FORM\" ignored`";
    SkillNotApplicable = "V304", Error, "skill N/A without TORRENT",
        "Only TORRENT weapons hit automatically; a weapon with BS/WS `N/A` and no TORRENT keyword cannot be simulated.\nExample: `raw/000.txt:20: error[V304]: datasheet 10e:x:y, weapon 'Grenade': skill N/A needs the TORRENT keyword`";
    ScenarioRefused = "V305", Error, "simulation refused",
        "The combination of weapon, target and conditions is not allowed by the rules or outside the simulator's limits (INDIRECT FIRE with TORRENT against a non-visible target; more than 200 models; more than 100 wounds).\nExample: `error[V305]: datasheet 10e:x:y, weapon 'Flamer': INDIRECT FIRE cannot be combined with TORRENT against a target that is not visible`";
    ReferenceTargetUnusable = "V306", Error, "reference target not usable",
        "A reference target (targets.yaml entry or datasheet used as a target) lacks T, Sv or W, or has a value out of range.\nExample: `schemas/targets.yaml:12: error[V306]: reference target 'vehicle': toughness 0 out of range`";


    // --- C: crosscheck -----------------------------------------------------------------------
    ExportLineMalformed = "C001", Warning, "export line malformed",
        "A line of the Wahapedia CSV export could not be read as a row of its table (invalid UTF-8, too few fields, a required value empty); the line is skipped and the crosscheck goes on without it.\nExample: `Datasheets_models.csv:42: warning[C001]: 3 fields, 13 expected; line skipped`";
    ExportDanglingRow = "C002", Warning, "export row refers to an unknown datasheet",
        "A row of a `Datasheets_*.csv` table names a `datasheet_id` that `Datasheets.csv` does not have (an orphan row): the row is not read into any record (and cannot be compared). A warning: the export lost the datasheet or the row is stale. Not reported when `Datasheets.csv` itself could not be read (`C004` says why).\nExample: `Datasheets_keywords.csv:15571: warning[C002]: datasheet_id 000004150 is not in Datasheets.csv`";
    ExportTableMissing = "C003", Warning, "export table missing or unreadable",
        "A directory claimed as Wahapedia's CSV export lacks one of the tables the record source reads (`Last_update.csv` included: the export is then read without its date). The source reads what is there: the rows of that table are absent from the records (a datasheet without `Datasheets_models.csv` has no model profiles).\nExample: `wahapedia-csv/2025-11-14/Datasheets_wargear.csv: warning[C003]: Datasheets_wargear.csv: table missing from the export; its rows are absent`";
    ExportTableUnreadable = "C004", Error, "export table cannot be read",
        "A folder looks like Wahapedia's CSV export (its table names, or a table's header shape: pipe-separated with `datasheet_id`, or `id|name|faction_id`) but one of its tables cannot be read: no header line, a header without a column the source needs, or `Datasheets.csv` missing. The table's rows are absent, so the dataset lacks them: an error (exit 1) naming the file and line, never an empty dataset that looks like success. Repeated byte-order marks before the header are read through (`C001`).\nExample: `wahapedia-csv/2025-11-14/Datasheets.csv:1: error[C004]: Datasheets.csv: column `id` missing from the header; its rows are absent`";
    ExportDuplicateId = "C005", Warning, "export table repeats an id",
        "Two or more rows of an id-keyed table of the export (`Datasheets.csv`, `Factions.csv`, `Stratagems.csv`, `Detachments.csv`, `Detachment_abilities.csv`, `Enhancements.csv`, `Source.csv`) have the same `id`. One record is kept, never two: the row chosen by content (the smallest row, its fields compared in order), so the choice does not depend on the order of the lines; the others are dropped and named. (`Abilities.csv` repeats ids in the export as published, its copies alike, and is not checked here.)\nExample: `Datasheets.csv:7: warning[C005]: id 000000001 is on lines 3, 7; the row of line 3 is kept (chosen by content), the others are dropped`";

    // --- B: BattleScribe data (records::bsdata) ------------------------------------------------
    XmlMalformed = "B001", Warning, "BattleScribe file is not well-formed XML",
        "A `.cat`/`.gst` file has an XML syntax error, a second root element, or ends inside an element (truncated). What precedes the fault is read; the rest is not, and the input is `partial` in the manifest. Links into the lost part are then unresolved (`B003`).\nExample: `bsdata/Tyranids.cat:9350: warning[B001]: file ends inside <sharedSelectionEntries> (line 121): truncated; what precedes is read`";
    NotBattleScribe = "B002", Warning, "XML file is not BattleScribe data",
        "The file was handed to the BattleScribe source (a `.cat`/`.gst` name or a BattleScribe root) but its root element is neither `catalogue` nor `gameSystem`, or a catalogue names no game system present. A file with the wrong root gives no records.\nExample: `bsdata/notes.cat:2: warning[B002]: root element <roster>, not <catalogue> or <gameSystem>; not read`";
    LinkUnresolved = "B003", Warning, "BattleScribe link to an absent element",
        "An `entryLink`, `infoLink` or `catalogueLink` names a target id no file of the folder defines (a catalogue that is linked but absent, such as Chaos Space Marines from Chaos Daemons). One diagnostic per link (the first 1,000 of a file, then one that counts the rest, so a file of dangling links costs memory in proportion to its size); the link is skipped, a root link to an absent datasheet gives no datasheet.\nExample: `bsdata/Chaos - Chaos Daemons.cat:12: warning[B003]: entryLink 'Chaos Lord' → 9e3c-… not found in this folder's catalogues`";
    LinkCycle = "B004", Warning, "BattleScribe links form a cycle",
        "Following links from a datasheet reaches an element that is already being read on the same path (A links to B, B back to A). The link that closes the cycle is not followed.\nExample: `bsdata/x.cat:40: warning[B004]: entryLink 'Wargear' → 1a2b-… closes a cycle of links; not followed`";
    ProfileTypeUnknown = "B005", Info, "BattleScribe profile of a type the datasheet has no field for",
        "A profile on a datasheet is neither a model profile (`Unit`: M T SV W LD OC), nor a weapon (its characteristics are a weapon's: Range A BS/WS S AP D, whatever the type is called), nor an ability (`Abilities` or a single text characteristic). It is not read into the datasheet; one diagnostic per profile type and file.\nExample: `bsdata/x.cat:88: info[B005]: profile type 'Psychic Power' (characteristics: Warp Charge, Range) on 'Librarian' is not read`";
    CrucibleSkipped = "B006", Info, "Crucible characters skipped",
        "Root entries tagged `[Crucible]` are Crusade characters built from a datasheet, not datasheets; they are counted and skipped, once per catalogue.\nExample: `bsdata/Tyranids.cat:45: info[B006]: 3 [Crucible] root entries skipped (not datasheets)`";
    ZipUnreadable = "B007", Warning, "zipped BattleScribe data that cannot be unzipped",
        "A `.catz`/`.gstz` file starts like a zip archive but cannot be read: the archive is damaged, holds no file, or its file is larger than 256 MiB unzipped. It is not read and keeps its `S007` (skipped); links into it are then unresolved (`B003`).\nExample: `bsdata/Necrons.catz: warning[B007]: zipped BattleScribe data not read: not a readable zip archive: invalid Zip archive: Could not find EOCD`";
    JsonMalformed = "B008", Warning, "BattleScribe JSON file is not well-formed",
        "A BattleScribe file in JSON (New Recruit's serialization of the same data model: a `catalogue` or `gameSystem` object) has a JSON syntax error, ends inside an object or array (truncated), nests deeper than 4,096 levels, or holds a value where no element can be (an array inside an array). What precedes the fault is read; the rest is not, and the input is `partial` in the manifest. A catalogue's header keys (`id`, `name`, `gameSystemId`) come last in these files: a truncated one usually names no game system and is then not read (`S010`).\nExample: `bsdata/Tyranids.json:9350: warning[B008]: file ends inside <sharedSelectionEntries> (line 121): truncated; what precedes is read`";
    CatalogueAbsent = "B009", Warning, "BattleScribe catalogue linked but absent",
        "A catalogue's `catalogueLink` names a catalogue no file of the folder defines (Ultramarines → Space Marines). One diagnostic per absent catalogue, counting the file's links whose targets no file defines (they point into that catalogue, or another absent one: an id does not say which); those links are not each reported (`B003`), are not followed, and a root link among them gives no datasheet.\nExample: `bsdata/Imperium - Ultramarines.json:4: warning[B009]: catalogueLink 'Imperium - Space Marines' → 1a2b-…: that catalogue is not in this folder; 71 links of this file reach no file of the folder (into it) and are not followed`";
    ModifierNotApplied = "B010", Warning, "BattleScribe points modifier of a shape not applied",
        "A points modifier's conditions hold a `localConditionGroup` cogitator does not read as a unit-count tier, two of them, or a condition-group child cogitator does not know. (The form it reads — at least N earlier selections that are instances of this unit, `scope=\"parent\"`: Custodian Guard's 4th+ unit costs 10 more — becomes tiers with `units` ranges.) Its meaning is not a model-count band, so it is not applied: the points are the base tiers, and this says what was left out.\nExample: `bsdata/Tyranids.json:2210: warning[B010]: 'Termagants': points increment 10 under a unit-count condition (localConditionGroup atLeast 3) that does not count this unit's earlier selections: not applied; the base tiers are given`";
    InvulnerableDisagrees = "B011", Warning, "BattleScribe InSv column and Invulnerable Save ability disagree",
        "A model profile's `InSv` column (11th edition's invulnerable save) and the datasheet's `Invulnerable Save (X+)` ability give different values. The column is the datasheet's invulnerable save; the ability still gives the condition (`*`).\nExample: `bsdata/Tyranids.json:812: warning[B011]: 'Tyranid Prime': InSv 5+ but the Invulnerable Save ability says 4+; the column's 5+ is kept`";
    GameSystemsApart = "B012", Info, "BattleScribe files of several game systems in one folder",
        "The folder holds files of more than one game system (10th-edition `.cat` and 11th-edition `.json` share thousands of ids): each game system's files are read apart, so a link never resolves into another game system's file.\nExample: `bsdata/Warhammer 40,000.json: info[B012]: this folder holds the files of 2 game systems (sys-352e-…-d6a9, sys-352e-…-d610); each is read apart`";
    JsonListUnknown = "B013", Info, "BattleScribe JSON list of an unknown name",
        "A JSON array's key is not one of the BattleScribe containers cogitator knows (`profiles` → `profile`, `sharedRules` → `rule`, …). Its objects are read as elements named by the key without its plural ending (`widgets` → `widget`); once per key and file.\nExample: `bsdata/x.json:40: info[B013]: list 'widgets' is not a known BattleScribe container; its items are read as <widget>`";

    // --- M: Munitorum Field Manual YAML (records::mfm_yaml) -----------------------------------
    MfmUnreadable = "M001", Warning, "Munitorum Field Manual YAML cannot be read",
        "A YAML file claimed as the Munitorum Field Manual (a `meta.yaml` with `factions`, `version` and `lastUpdated`, or a faction file with `units[].pricing`) is not well-formed YAML, has a value of the wrong type (`points: ten`), or exceeds the reader's budget (nesting, aliases, nodes in proportion to the file's size). The file gives no records; the others of its folder are read.\nExample: `mfm-11e/data/orks.yaml:41: warning[M001]: not read: units[3].pricing[0].costs[0].points: invalid type: string \"ten\", expected u32`";
    MfmRangeUnparsed = "M002", Warning, "unit-count range not understood",
        "A pricing tier's `range` is not `[FROM,TO]` or `[FROM,)` with 1 <= FROM <= TO (`[1,3]`: the 1st to 3rd unit; `[4,)`: the 4th unit on). The tier is dropped, never guessed; the unit keeps its other tiers.\nExample: `mfm-11e/data/orks.yaml:52: warning[M002]: Boyz: unit-count range '[3,1]' not understood; tier 'Your 3rd + Unit Costs' dropped`";
    MfmVersionMismatch = "M003", Warning, "faction file and meta.yaml give different versions",
        "A faction file's `version` differs from its folder's `meta.yaml` `version`. The faction file's own version is the publication version of its points; both are named.\nExample: `mfm-11e/data/orks.yaml:3: warning[M003]: version '1.0' differs from meta.yaml's '1.1'; the file's is kept`";
    MfmNoTitle = "M004", Info, "points publication carries no title",
        "The Munitorum Field Manual YAML names its version and date but not its title, so the points records' `publication.title` is `null` (never the file or folder name). Reported once per file that gives points.\nExample: `mfm-11e/data/meta.yaml: info[M004]: the YAML names no publication title; publication.title is null`";
    MfmNoEdition = "M005", Warning, "Munitorum Field Manual YAML without an edition marker",
        "Neither the folder's `meta.yaml` notes (an 11th-edition marker of `schemas/editions.yaml`: Detachment Points, Force Disposition) nor the file's detachments (`dp`) say which edition the points are for. The file is not read (its edition is never assumed).\nExample: `mfm/orks.yaml: warning[M005]: no edition marker (no meta.yaml notes naming one, no detachment with dp); not read`";
    MfmTiersByComposition = "M006", Warning, "two tiers of one model count told apart only by their composition",
        "A pricing tier lists the same number of models twice at different costs, told apart only by `desc` (`6 Wolf Guard Headtakers` vs `3 Wolf Guard Headtakers, 3 Hunting Wolves`). A points tier has no field for the composition, so neither is kept (one would be a guess); the unit keeps its other tiers.\nExample: `mfm-11e/data/space-wolves.yaml:1388: warning[M006]: Wolf Guard Headtakers: 6 models cost 115 as '3 Wolf Guard Headtakers, 3 Hunting Wolves' and differently as another composition in range '[1,2]'; tier dropped`";

    // --- G: the GW app's data as game-datacards JSON (records::game_datacards) ----------------
    GdcNoEdition = "G001", Warning, "game-datacards file without one edition",
        "A game-datacards faction file (JSON whose top-level keys include `datasheets` and `detachments`) has no `source` naming an edition marker of `schemas/editions.yaml` (`40k-11e`), and its datasheets' `source` name none or more than one. The file is not read (its edition is never assumed).\nExample: `game-datacards/orks.json: warning[G001]: no edition: the file's `source` and its datasheets' `source` name no single edition marker; not read`";
    GdcNoEnglish = "G002", Warning, "game-datacards text without English",
        "A text of the app's data is a language map (`{\"en\": …, \"de\": …}`) without `en`. The field is left out (null or not listed), never filled from another language; an ability's other languages are still kept in its `translations`. One per text, at the datasheet's line.\nExample: `game-datacards/custodes.json:12: warning[G002]: 'Custodian Guard': a text without `en` (languages: de, fr); left out`";
    GdcUnreadable = "G003", Warning, "game-datacards JSON cannot be read",
        "A file claimed as game-datacards data (its bytes name `datasheets` and `detachments`) is not well-formed JSON. It gives no records; the other files of its folder are read.\nExample: `game-datacards/orks.json:41: warning[G003]: not read: expected `,` or `}` at line 41 column 3`";
    GdcAdditionalCostUnread = "G004", Warning, "game-datacards additionalCost not applied",
        "A datasheet's `additionalCost` has `afterSelections` 0: no unit is priced before the added cost applies, which is not the app's unit-count tier (the cost added from the N+1-th unit of the datasheet on). It is not applied: the base tiers are given.\nExample: `game-datacards/custodes.json:40: warning[G004]: additionalCost with afterSelections 0 (no unit before the cost applies): not applied; the base tiers are given`";
    GdcTiersAmbiguous = "G005", Warning, "game-datacards points: two costs for one model count",
        "A datasheet's `points` list the same number of models twice at different costs, with no keyword or detachment to tell them apart (Bladeguard Veteran Squad: 6 models at 160 and 170). Which applies when is not in the data, so neither is kept (one would be a guess); the datasheet keeps its other tiers.\nExample: `game-datacards/space_marines.json:9719: warning[G005]: 'Bladeguard Veteran Squad': 6 models cost 160 and 170 in the app's points, with nothing to tell them apart; tier dropped`";
    GdcEnhancementCostUnread = "G006", Warning, "game-datacards enhancement cost not a number",
        "An enhancement's `cost` (a string in the app's data: `\"10\"`) is not a whole number of points. The enhancement is kept with `points` null, never a guessed cost.\nExample: `game-datacards/custodes.json:88: warning[G006]: enhancement 'Auric Mantle' costs `15+`, not a number; points null`";
    GdcDetachmentUnknown = "G007", Warning, "game-datacards record names no detachment of its file",
        "A stratagem, enhancement or detachment rule of a faction file names no detachment (`detachment`, `detachment_id`) of the file's `detachments[]`. The record is kept (a stratagem under the detachment name it prints, `unknown` when none) but no detachment lists it.\nExample: `game-datacards/custodes.json:120: warning[G007]: stratagem 'Peerless Warrior' names detachment 'Lions of the Emperor', which the file's detachments do not list; no detachment lists it`";
    GdcRulePartUnread = "G008", Warning, "game-datacards rule part not read",
        "A part of an army or detachment rule (`rules[]{order, type, text}`) is not text: an `image` (its content, a table of the printed card, is not in the data: its text is `-`), a type cogitator does not know, or a part without an `order` (its place in the rule is unknown). It is left out of the rule's text, never guessed; the other parts are read in `order`.\nExample: `game-datacards/space_marines.json:310: warning[G008]: rule 'Rapid-drop Deployment': part 2 is an image (not in the data); left out`";
    GdcDetachmentPointsPerFaction = "G009", Info, "game-datacards detachment points differ per faction",
        "A detachment's `detachmentPointsOverrides` give other Detachment Points for armies of another faction (Black Templars, Blood Angels). The contract has one `points` per detachment: it is the detachment's own `detachmentPoints`; the overrides are named here.\nExample: `game-datacards/space_marines.json:40: info[G009]: detachment 'Stormlance Task Force' costs 3 DP, and for Black Templars 2, Blood Angels 2; points 3`";
    GdcCorePartsNotRead = "G010", Info, "core rules: containers and images that give no rule",
        "The app's core rules file (`cardType: coreRules`) has parts that are no rule text: `stratagem` containers carry only a `stratagem_id` (the stratagem's text is not in the material, so no empty rule is made) and `image` components are pictures (counted, never text). One per file, naming the stratagem containers' numbers and the count of images.\nExample: `game-datacards/11th/core/core_rules.json:1: info[G010]: 10 stratagem containers without text in the material (15.02 Command Re-Roll, …) give no rule; 36 images not read`";
    GdcCoreNumberTwice = "G011", Info, "core rules: one section number printed on two rules",
        "Two containers or accordions of the core rules print the same section number (`09.07.01` is both Desperate Escape Test and Desperate Escape). Both are kept as rules with that number (their names tell them apart); a later rule whose number extends it takes the first as its parent.\nExample: `game-datacards/11th/core/core_rules.json:40210: info[G011]: section number 09.07.01 is printed on 'Desperate Escape Test' and 'Desperate Escape'; both kept`";
    GdcCoreNumberUnpadded = "G012", Info, "core rules: section number not in the NN.NN form",
        "A section number of the core rules is printed without its leading zeros (`5.3.2 - Attacks Modified…` among `05.03.01`). It is read with them (`05.03.02`), so it sorts and finds its parent as the others do. A title or subtitle that is no number at all gives a rule without a number (a warning would be a guess about where it belongs: it stays under none).\nExample: `game-datacards/11th/core/core_rules.json:20110: info[G012]: section number '5.3.2' read as 05.03.02`";
    GdcCoreNameShared = "G013", Info, "core rules: two numbered rules share a name",
        "Two rules of the core rules have the same name (`Abilities` is 02.03 and 24.01). Neither takes the plain id: both get their section number in their id (`ids::in_section`: `11e:core:abilities~02-03`, `11e:core:abilities~24-01`), never one overwriting the other.\nExample: `game-datacards/11th/core/core_rules.json:5120: info[G013]: 'Abilities' names 02.03 and 24.01; ids carry their section numbers`";
    GdcCoreUntitled = "G014", Info, "core rules: an accordion with a number and no title",
        "An accordion of the core rules is titled with its section number only (`24.37.01`). It is a rule of its own (its number places it under its parent) with no name (`null`, never made up from its parent's); its id is built from its text (`ids::unnamed_rule`).\nExample: `game-datacards/11th/core/core_rules.json:61200: info[G014]: accordion 24.37.01 has a number and no title; rule kept without a name`";
    GdcFileNotRead = "G015", Info, "game-datacards file of a kind not read",
        "A game-datacards file whose `cardType` the reader knows but does not turn into records: `faq` (`faqs.json`: errata headers, texts and the records they target; the contract has no errata record) and `keywords` (`keywords.json`: its abilities and weapon keywords are the core rules' own numbered rules, Deep Strike 24.09, and the 11th-edition weapon keyword vocabulary's; read again they would be second rules of the same ids). One per file; the file is `skipped` in the manifest.\nExample: `game-datacards/11th/faqs.json: info[G015]: cardType 'faq' (errata and FAQs) is not read: no record of the contract holds errata`";

    // --- P: points documents (the Munitorum Field Manual as PDF) --------------------------------
    PointsDocLineUnparsed = "P001", Warning, "points document line not understood",
        "A line of a points document under a unit is neither a tier (`N models … P pts`, a composition or a range of models), an add-on (`Name … +P pts`) nor a wrapped name. Its text is kept in the diagnostic; no tier is invented from it.\nExample: `pdf-points/mfm.pdf:p7: warning[P001]: points line not understood under 'Crusader Squad': '10 models … see page 4'`";
    UnitPricedTwice = "P002", Warning, "unit priced twice in one publication",
        "A points document prices the same unit of the same faction in two places with different tiers. Both are kept in print order in the one record (the reconciliation shows them); nothing is dropped.\nExample: `pdf-points/mfm.pdf:p11: warning[P002]: 'Crusader Squad' is priced twice in 'Munitorum Field Manual' 1.1 (p11 and p12)`";
    PointsWithoutFaction = "P003", Info, "points page without a faction heading",
        "Units are priced before any faction heading, or under a heading that names no faction of the vocabulary (`ADEPTUS TITANICUS`): their ids carry the heading's own slug (or `unknown`), never a guessed faction.\nExample: `pdf-points/mfm.pdf:p5: info[P003]: heading 'ADEPTUS TITANICUS' names no faction of the 10e vocabulary; its 12 units keep the scope 'adeptus-titanicus'`";

    // --- E: errata documents ----------------------------------------------------------------------
    ErratumWithoutInstruction = "E001", Warning, "errata entry without instruction",
        "An errata entry names its target and section (`Warp Hunter – Ranged Weapons`) but no instruction follows before the next entry or heading, often because the page is cut off. The entry is kept with `instruction: null`.\nExample: `pdf-errata/ic-errata.pdf:p2: warning[E001]: erratum 'Warp Hunter – Ranged Weapons' has no instruction`";
    ErratumNotMechanical = "E002", Info, "erratum reported, not applied",
        "An errata instruction that is not one of the mechanical changes (add or remove a keyword, change a characteristic or a weapon value, replace a sentence, add a weapon profile) is kept in `errata.json` with `op: null` and reported; it is never applied by guess.\nExample: `pdf-errata/ic-errata.pdf:p3: info[E002]: erratum 'Trajann Valoris – Attached Unit' is not mechanical ('Add Attached Unit section …'); reported, not applied`";
    ErratumTargetAbsent = "E003", Info, "erratum target not in the run",
        "An erratum's target (a datasheet, stratagem or rule) is not among the records of this run, so it is kept in `errata.json` without being applied. One per publication, with the count and the first few targets.\nExample: `pdf-errata/ic-errata.pdf: info[E003]: 171 errata of 'Index Cards Errata' 1.2 target records not in this run: Canoness, Celestine, …`";
    ErratumDoesNotApply = "E004", Warning, "erratum does not apply to the value",
        "A mechanical erratum targets a record of the run, but the value it changes is not there as the erratum expects (the keyword to add is already present, the weapon to change is missing, the value to replace is not printed). Nothing is changed; both the erratum and the value are named.\nExample: `pdf-errata/ic-errata.pdf:p2: warning[E004]: erratum 'Warp Hunter – Ranged Weapons' changes 'Twin shuriken catapult' AP, but the datasheet 10e:aeldari:warp-hunter has no such weapon`";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_is_in_enum_order_and_unique() {
        for (i, c) in CODES.iter().enumerate() {
            assert_eq!(c.code as usize, i, "{} out of order", c.name);
        }
        let mut names: Vec<_> = CODES.iter().map(|c| c.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), CODES.len(), "duplicate code string");
    }

    #[test]
    fn every_code_has_an_example() {
        for c in CODES {
            assert!(
                c.explanation.contains("Example:"),
                "{} lacks an example",
                c.name
            );
            assert_eq!(c.name.len(), 4, "{}", c.name);
        }
    }

    #[test]
    fn parse_round_trips() {
        for c in CODES {
            assert_eq!(Code::parse(c.name), Some(c.code));
        }
        assert_eq!(Code::parse("Z999"), None);
    }
}
