//! Text helpers shared by extractors (stub).
