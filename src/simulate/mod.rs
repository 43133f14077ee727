//! The embedded dice engine (exact distributions and Monte Carlo). No I/O.
