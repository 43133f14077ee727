//! The one way cogitator reads a file ([`read_regular`]): a regular file only, opened without
//! blocking, its type re-checked on the descriptor, the read capped. Used by `discover` (inputs,
//! re-exported there), `emit` (an output directory's manifest and marker) and `explain` (the
//! sources a dataset names). A bottom layer of the I/O edges: it imports no other module of the
//! crate, so `discover` and `emit` can both use it without importing each other both ways.
//! Must not walk directories or know what it reads.

use std::path::Path;

/// Why a file was not read by [`read_regular`].
pub enum Unread {
    /// Not a regular file (its kind: `FIFO`, `character device`, …).
    NotRegular(&'static str),
    Io(std::io::Error),
}

/// Whether [`read_regular`] follows a symbolic link at the path's last component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LastLink {
    /// Inputs: a link given or met while walking is followed (loops and dangling links are
    /// caught by the walk).
    Follow,
    /// Files a dataset or an output directory names (`explain`'s sources, `emit`'s manifest and
    /// marker): a link there is refused (`O_NOFOLLOW`).
    Refuse,
}

/// The one way cogitator reads a file: a regular file only, at most `max` bytes plus one (a
/// file that grew past the limit reads as changed). The file is opened without blocking
/// (`O_NONBLOCK`: a FIFO swapped in after discovery cannot hang the open) and its type is
/// checked on the open descriptor, so a path replaced by a device or FIFO between the check and
/// the open is never read. Used by discovery, `emit` and `explain`.
pub fn read_regular(path: &Path, max: u64, link: LastLink) -> Result<Vec<u8>, Unread> {
    use std::io::Read;
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let nofollow = if link == LastLink::Refuse {
            libc::O_NOFOLLOW
        } else {
            0
        };
        opts.custom_flags(libc::O_NONBLOCK | nofollow);
    }
    let file = opts.open(path).map_err(Unread::Io)?;
    let meta = file.metadata().map_err(Unread::Io)?;
    if !meta.is_file() {
        return Err(Unread::NotRegular(file_kind(&meta.file_type())));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len().min(max)).unwrap_or(0));
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Unread::Io)?;
    Ok(bytes)
}

/// What kind of file that is not a regular file `t` names.
pub(crate) fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "FIFO";
        } else if t.is_char_device() {
            return "character device";
        } else if t.is_block_device() {
            return "block device";
        } else if t.is_socket() {
            return "socket";
        }
    }
    if t.is_dir() {
        "directory"
    } else {
        "not a regular file"
    }
}
