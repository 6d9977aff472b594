//! The registry: every kind this process knows, each declared once with its options.
//!
//! A kind's options are one struct ([`KindOptions`]) that is at the same time its command-line flags
//! (`clap::Args`: `blockprint make <kind> --help` lists them), its identity in the manifest and in a web
//! form (serde: the options as JSON), and a machine-readable schema (schemars: a JSON Schema a form is
//! built from). The defaults are written once, in the clap attributes; JSON options are read over them.
//!
//! A registry entry is a [`KindDef`]: the kind as `build` makes it ([`KindDef::base`]) plus how to make it
//! with options. [`Plain`] registers a kind without options, [`Declared`] one with an options struct.

use crate::error::{Problem, json};
use blockprint_content::error::{Error, Result};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::{Checked, Collect, Document, Format, Kind, KindInfo, Markdown, Request, Requirements};

/// What a kind's options struct is: clap flags, serde identity and JSON Schema from one declaration.
pub trait KindOptions:
    clap::Args
    + clap::FromArgMatches
    + Serialize
    + DeserializeOwned
    + schemars::JsonSchema
    + Clone
    + Send
    + Sync
    + 'static
{
}

impl<T> KindOptions for T where
    T: clap::Args
        + clap::FromArgMatches
        + Serialize
        + DeserializeOwned
        + schemars::JsonSchema
        + Clone
        + Send
        + Sync
        + 'static
{
}

/// The options of a kind that takes none.
#[derive(
    Debug, Clone, Default, clap::Args, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct NoOptions {}

/// The options as they are when no flag is given: the defaults the clap attributes declare.
pub fn defaults<O: KindOptions>() -> Result<O> {
    let cmd = O::augment_args(clap::Command::new("defaults").no_binary_name(true));
    let no_defaults = |e: clap::Error| -> Error {
        Problem::Defaults {
            message: e.to_string(),
        }
        .into()
    };
    let m = cmd
        .try_get_matches_from(std::iter::empty::<String>())
        .map_err(no_defaults)?;
    O::from_arg_matches(&m).map_err(no_defaults)
}

/// Options given as JSON (from a web form, a manifest or a test) read over the defaults: a key left out
/// keeps its default (in nested objects too), an unknown key is refused by name.
pub fn from_json<O: KindOptions>(kind: &str, given: &Value) -> Result<O> {
    let mut full = json("a kind's options", &defaults::<O>()?)?;
    if !full.is_object() {
        return Err(crate::error::invariant(format!(
            "the options of `{kind}` are not an object"
        )));
    }
    match given {
        Value::Null => {}
        Value::Object(_) => merge(kind, "", &mut full, given)?,
        other => {
            return Err(Problem::OptionsNotObject {
                kind: kind.into(),
                given: other.to_string(),
            }
            .into());
        }
    }
    serde_json::from_value(full).map_err(|e| {
        Problem::OptionsValue {
            kind: kind.into(),
            message: e.to_string(),
        }
        .into()
    })
}

/// Lay `given` over `into`, key by key: objects merge, anything else replaces.
fn merge(kind: &str, path: &str, into: &mut Value, given: &Value) -> Result<()> {
    let (Value::Object(into), Value::Object(given)) = (into, given) else {
        return Ok(());
    };
    for (k, v) in given {
        let at = if path.is_empty() {
            k.clone()
        } else {
            format!("{path}.{k}")
        };
        match into.get_mut(k) {
            None => {
                return Err(Problem::NoSuchOption {
                    kind: kind.into(),
                    option: at,
                    known: into.keys().cloned().collect(),
                }
                .into());
            }
            Some(slot) if slot.is_object() && v.is_object() => merge(kind, &at, slot, v)?,
            Some(slot) => *slot = v.clone(),
        }
    }
    Ok(())
}

/// The JSON Schema of an options struct.
pub fn schema<O: KindOptions>() -> Value {
    serde_json::to_value(schemars::schema_for!(O)).unwrap_or(Value::Null)
}

/// What runs after a configured kind wrote its files (the card kinds' PNG pass): the checked content,
/// the options, the engine, the request and whether to stay quiet.
/// Runs after a configured kind wrote its files: the content, the options, the engine, the request, whether
/// the run is quiet, and the sink that takes what it has to say.
pub type After<O> = fn(
    &Checked,
    &O,
    &blockprint_render::Engine,
    &Request,
    bool,
    &dyn crate::sink::Sink,
) -> Result<()>;

/// A registered kind: the kind `build` makes, and how to make it with options.
pub trait KindDef: Send + Sync {
    /// The kind as `build` makes it; its facts are the registry's.
    fn base(&self) -> &dyn Kind;
    /// The kind's static facts.
    fn info(&self) -> &KindInfo {
        self.base().info()
    }
    /// Whether the kind rolls with some of its options (a batch of detectives does, the pregenerated
    /// set `build` makes does not): then its command takes a batch's seed, count and first number.
    fn rolls(&self) -> bool {
        self.info().rolls
    }
    /// Adds the options' flags to `make <name>` (and to the commands that are its aliases).
    fn args(&self, cmd: clap::Command) -> clap::Command {
        cmd
    }
    /// The options given on a command line, as JSON (every option, defaults included).
    fn options_from_args(&self, _m: &clap::ArgMatches) -> Result<Value> {
        Ok(Value::Object(Map::new()))
    }
    /// The options' defaults, as JSON.
    fn defaults(&self) -> Result<Value> {
        Ok(Value::Object(Map::new()))
    }
    /// The JSON Schema of the options.
    fn schema(&self) -> Value {
        schema::<NoOptions>()
    }
    /// The kind configured with `options` (JSON, read over the defaults) for checked content.
    fn configure<'a>(&'a self, cx: &Checked, options: &Value) -> Result<Box<dyn Kind + 'a>>;
    /// Runs after the configured kind wrote its files.
    fn after(
        &self,
        _cx: &Checked,
        _options: &Value,
        _engine: &blockprint_render::Engine,
        _req: &Request,
        _quiet: bool,
        _sink: &dyn crate::sink::Sink,
    ) -> Result<()> {
        Ok(())
    }
}

/// A registered kind behind a reference (a `static` declaration, registered with `Box::new(&DEF)`).
impl<D: KindDef + ?Sized> KindDef for &D {
    fn base(&self) -> &dyn Kind {
        (**self).base()
    }
    fn info(&self) -> &KindInfo {
        (**self).info()
    }
    fn rolls(&self) -> bool {
        (**self).rolls()
    }
    fn args(&self, cmd: clap::Command) -> clap::Command {
        (**self).args(cmd)
    }
    fn options_from_args(&self, m: &clap::ArgMatches) -> Result<Value> {
        (**self).options_from_args(m)
    }
    fn defaults(&self) -> Result<Value> {
        (**self).defaults()
    }
    fn schema(&self) -> Value {
        (**self).schema()
    }
    fn configure<'a>(&'a self, cx: &Checked, options: &Value) -> Result<Box<dyn Kind + 'a>> {
        (**self).configure(cx, options)
    }
    fn after(
        &self,
        cx: &Checked,
        options: &Value,
        engine: &blockprint_render::Engine,
        req: &Request,
        quiet: bool,
        sink: &dyn crate::sink::Sink,
    ) -> Result<()> {
        (**self).after(cx, options, engine, req, quiet, sink)
    }
}

/// A kind without options, registered as it is.
pub struct Plain<K>(pub K);

impl<K: Kind + Send + Sync> KindDef for Plain<K> {
    fn base(&self) -> &dyn Kind {
        &self.0
    }
    fn configure<'a>(&'a self, _cx: &Checked, options: &Value) -> Result<Box<dyn Kind + 'a>> {
        from_json::<NoOptions>(self.0.name(), options)?;
        Ok(Box::new(&self.0))
    }
}

/// A kind with an options struct `O`.
pub struct Declared<O: 'static> {
    /// The kind as `build` makes it.
    pub base: &'static (dyn Kind + Send),
    /// The kind configured with options, for checked content (usage errors name the flag and the fix).
    pub configure: fn(&Checked, &O) -> Result<Box<dyn Kind>>,
    /// Runs after the configured kind wrote its files.
    pub after: Option<After<O>>,
    /// Whether some of its options make it roll when the base does not ([`KindDef::rolls`]).
    pub rolls: bool,
}

impl<O: KindOptions> KindDef for Declared<O> {
    fn base(&self) -> &dyn Kind {
        self.base
    }
    fn rolls(&self) -> bool {
        self.rolls || self.base.rolls()
    }
    fn args(&self, cmd: clap::Command) -> clap::Command {
        O::augment_args(cmd)
    }
    fn options_from_args(&self, m: &clap::ArgMatches) -> Result<Value> {
        let o = O::from_arg_matches(m).map_err(|e| Problem::Args {
            message: e.to_string(),
        })?;
        json("a kind's options", &o)
    }
    fn defaults(&self) -> Result<Value> {
        json("a kind's options", &defaults::<O>()?)
    }
    fn schema(&self) -> Value {
        schema::<O>()
    }
    fn configure<'a>(&'a self, cx: &Checked, options: &Value) -> Result<Box<dyn Kind + 'a>> {
        let name = self.base.name();
        let o: O = from_json(name, options)?;
        let identity = json("a kind's options", &o)?;
        Ok(Box::new(WithIdentity {
            kind: (self.configure)(cx, &o)?,
            identity,
        }))
    }
    fn after(
        &self,
        cx: &Checked,
        options: &Value,
        engine: &blockprint_render::Engine,
        req: &Request,
        quiet: bool,
        sink: &dyn crate::sink::Sink,
    ) -> Result<()> {
        match self.after {
            Some(f) => f(
                cx,
                &from_json(self.base.name(), options)?,
                engine,
                req,
                quiet,
                sink,
            ),
            None => Ok(()),
        }
    }
}

/// A configured kind whose options are its identity in the manifest: a rerun with other options
/// rewrites every file.
struct WithIdentity {
    kind: Box<dyn Kind>,
    identity: Value,
}

impl Kind for WithIdentity {
    fn info(&self) -> &KindInfo {
        self.kind.info()
    }
    fn requires(&self) -> Requirements {
        self.kind.requires()
    }
    fn check_formats(&self, formats: &[Format]) -> Result<()> {
        self.kind.check_formats(formats)
    }
    fn count(&self, cx: &Checked, req: &Request) -> Result<usize> {
        self.kind.count(cx, req)
    }
    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
        self.kind.document(cx, req, i)
    }
    fn collect(&self) -> Collect {
        self.kind.collect()
    }
    fn head(&self, cx: &Checked, req: &Request) -> Map<String, Value> {
        self.kind.head(cx, req)
    }
    fn markdown(
        &self,
        cx: &Checked,
        engine: &dyn Markdown,
        doc: &Document,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        self.kind.markdown(cx, engine, doc)
    }
    fn state(&self) -> Option<Value> {
        self.kind.state()
    }
    fn options(&self) -> Option<Value> {
        Some(self.identity.clone())
    }
    fn batch(&self, req: &Request) -> Map<String, Value> {
        self.kind.batch(req)
    }
    fn pdf_data<'a>(&self, doc: &'a Document) -> std::borrow::Cow<'a, Value> {
        self.kind.pdf_data(doc)
    }
    fn finish_pdf(&self, doc: &Document, pdf: Vec<u8>) -> Result<Vec<u8>> {
        self.kind.finish_pdf(doc, pdf)
    }
    fn files(&self, cx: &Checked, doc: &Document, f: Format) -> Result<Vec<(String, Vec<u8>)>> {
        self.kind.files(cx, doc, f)
    }
    fn pictures(
        &self,
        cx: &Checked,
        req: &Request,
        doc: &Document,
    ) -> Result<Option<crate::Pictures>> {
        self.kind.pictures(cx, req, doc)
    }
    fn warnings(&self, cx: &Checked, req: &Request) -> Result<Vec<String>> {
        self.kind.warnings(cx, req)
    }
}

/// Every kind this process knows: the Rust kinds and the layout kinds found in the templates.
pub struct Registry {
    defs: Vec<Def>,
}

enum Def {
    Static(&'static dyn KindDef),
    Owned(Box<dyn KindDef>),
}

impl Def {
    fn get(&self) -> &dyn KindDef {
        match self {
            Def::Static(d) => *d,
            Def::Owned(d) => d.as_ref(),
        }
    }
}

impl Registry {
    /// The built-in Rust kinds plus one layout kind per `kind.toml` among `templates`.
    pub fn new(templates: &blockprint_render::Templates) -> Result<Self> {
        let mut reg = Registry {
            defs: crate::RUST_KINDS.iter().map(|d| Def::Static(*d)).collect(),
        };
        for spec in crate::layout::discover(templates)? {
            if reg.get(&spec.name).is_some() {
                return Err(Problem::KindExists {
                    file: spec.file.to_string(),
                    name: spec.name.to_string(),
                }
                .into());
            }
            reg.defs.push(Def::Owned(Box::new(Plain(spec))));
        }
        Ok(reg)
    }

    /// No kinds at all (for commands that only read tables).
    pub fn empty() -> Self {
        Registry { defs: Vec::new() }
    }

    /// Add a kind without options (for embedders and tests): one registration line.
    pub fn register(&mut self, kind: Box<dyn Kind + Send>) {
        self.defs.push(Def::Owned(Box::new(Plain(kind))));
    }

    /// Add a kind with its options.
    pub fn register_def(&mut self, def: Box<dyn KindDef>) {
        self.defs.push(Def::Owned(def));
    }

    /// Every registered kind with its options, in registration order (the order `build` runs them).
    pub fn defs(&self) -> impl Iterator<Item = &dyn KindDef> {
        self.defs.iter().map(Def::get)
    }

    /// The registered kind named `name`.
    pub fn def(&self, name: &str) -> Option<&dyn KindDef> {
        self.defs().find(|d| d.info().name == name)
    }

    /// Every kind as `build` makes it.
    pub fn kinds(&self) -> impl Iterator<Item = &dyn Kind> {
        self.defs().map(KindDef::base)
    }

    /// The kind named `name`, as `build` makes it.
    pub fn get(&self, name: &str) -> Option<&dyn Kind> {
        self.def(name).map(KindDef::base)
    }
}
