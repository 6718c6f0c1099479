//! A SQLite VFS over the default one that holds the write-ahead log's writes until the commit
//! syncs the log, then writes them as one. SQLite writes each frame of a commit by two calls
//! of its own (a 24-byte header, then the page); inside the component every file call is a
//! call out to the host, which wasmtime's C API (under wasmtime-py) runs on a thread pool and
//! waits for. A commit of twenty pages made forty such calls; now it makes one.
//!
//! It also keeps a copy of the log as written through it (up to [`COPY_LIMIT`] bytes from the
//! start), and answers reads inside the copy from memory: a checkpoint reads back every page
//! it copies into the store, one call each, and so did a read of a page the cache had let go.
//!
//! Nothing else changes. A sync, size, truncation, file control, close, or read beyond the
//! copy writes what is held first, so SQLite always sees the file it wrote, and what a commit
//! wrote is in the file, and synced, before the commit answers. That last holds because every
//! commit syncs the log (`synchronous = FULL`, which the component sets): without a sync, held
//! writes would wait for the next one. Other files (the store, a rollback journal) are the
//! default VFS's own, untouched.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::OnceLock;

use rusqlite::ffi;

/// The VFS's name, for `Connection::open_with_flags_and_vfs`.
pub const NAME: &CStr = c"mnemo-log-buffer";

/// Held writes go to the file before they pass this many bytes: the most the default VFS
/// writes in one call (`os_unix.c` keeps 17 bits of a write's length). A commit of 4 KiB pages
/// writes 31 frames per call.
const LIMIT: usize = 0x1ffff;

/// Writes made to the log files by this VFS (a test counts them).
#[cfg(test)]
static WRITES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Reads of the log answered from its copy (a test counts them).
#[cfg(test)]
static COPY_READS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// An open log file: the default VFS's file right after this header, and what is held.
#[repr(C)]
struct LogFile {
    base: ffi::sqlite3_file,
    real: *mut ffi::sqlite3_file,
    held: *mut Held,
}

/// Bytes of the log this VFS keeps in memory as well: about twice what the log holds before the
/// component copies it back into the store (`CHECKPOINT_BYTES`; a large commit's log is
/// longer, and is read from the file beyond this). WebAssembly memory, once grown, is not
/// given back.
const COPY_LIMIT: usize = 8 << 20;

/// Writes not yet made (`bytes` belong at `start` in the file), and the copy of the log.
struct Held {
    start: i64,
    bytes: Vec<u8>,
    /// The file's first `copy.len()` bytes, as written through this file since it opened (the
    /// bytes of a log that was there before are read from the file until written again).
    copy: Vec<u8>,
}

impl Held {
    /// Records `data`, written at `offset`, in the copy where it continues or overwrites it.
    fn copy_write(&mut self, offset: i64, data: &[u8]) {
        let Ok(at) = usize::try_from(offset) else {
            return;
        };
        if at > self.copy.len() {
            // A gap: what lies in it is not known.
            return;
        }
        let end = (at + data.len()).min(COPY_LIMIT.max(at));
        let kept = &data[..end - at];
        let overlap = self.copy.len().min(end) - at;
        self.copy[at..at + overlap].copy_from_slice(&kept[..overlap]);
        self.copy.extend_from_slice(&kept[overlap..]);
    }

    /// Drops the copy from `offset` on: a write there failed, so the file may not hold it.
    fn forget_from(&mut self, offset: i64) {
        self.copy.truncate(usize::try_from(offset).unwrap_or(0));
    }

    /// The copy's bytes `[offset, offset + n)`, when it holds all of them.
    fn copied(&self, offset: i64, n: usize) -> Option<&[u8]> {
        let at = usize::try_from(offset).ok()?;
        self.copy.get(at..at.checked_add(n)?)
    }
}

/// Where the default VFS's file starts inside ours (8-byte aligned).
const REAL_OFFSET: usize = std::mem::size_of::<LogFile>().next_multiple_of(8);

/// The VFS registered once per process, or SQLite's error code.
static REGISTERED: OnceLock<c_int> = OnceLock::new();

/// Registers the VFS (once; later calls answer as the first did). It wraps the default VFS.
pub fn register() -> rusqlite::Result<()> {
    let rc = *REGISTERED.get_or_init(|| unsafe {
        let real = ffi::sqlite3_vfs_find(std::ptr::null());
        if real.is_null() {
            return ffi::SQLITE_ERROR;
        }
        let vfs = Box::leak(Box::new(ffi::sqlite3_vfs {
            iVersion: 2,
            szOsFile: (REAL_OFFSET + (*real).szOsFile as usize) as c_int,
            mxPathname: (*real).mxPathname,
            pNext: std::ptr::null_mut(),
            zName: NAME.as_ptr(),
            pAppData: real.cast(),
            xOpen: Some(open),
            xDelete: Some(delete),
            xAccess: Some(access),
            xFullPathname: Some(full_pathname),
            xDlOpen: None,
            xDlError: None,
            xDlSym: None,
            xDlClose: None,
            xRandomness: Some(randomness),
            xSleep: Some(sleep),
            xCurrentTime: Some(current_time),
            xGetLastError: Some(last_error),
            xCurrentTimeInt64: Some(current_time_i64),
            xSetSystemCall: None,
            xGetSystemCall: None,
            xNextSystemCall: None,
        }));
        ffi::sqlite3_vfs_register(vfs, 0)
    });
    if rc == ffi::SQLITE_OK {
        Ok(())
    } else {
        Err(rusqlite::Error::SqliteFailure(ffi::Error::new(rc), None))
    }
}

/// The default VFS this one wraps.
unsafe fn real(vfs: *mut ffi::sqlite3_vfs) -> *mut ffi::sqlite3_vfs {
    (*vfs).pAppData.cast()
}

unsafe extern "C" fn open(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    file: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
) -> c_int {
    let real_vfs = real(vfs);
    let Some(real_open) = (*real_vfs).xOpen else {
        return ffi::SQLITE_ERROR;
    };
    if flags & ffi::SQLITE_OPEN_WAL == 0 {
        // Not a log: the default VFS's file, in place (ours is larger than it needs).
        return real_open(real_vfs, name, file, flags, out_flags);
    }
    let log = file.cast::<LogFile>();
    let inner = file
        .cast::<u8>()
        .add(REAL_OFFSET)
        .cast::<ffi::sqlite3_file>();
    let rc = real_open(real_vfs, name, inner, flags, out_flags);
    if rc != ffi::SQLITE_OK {
        // SQLite calls no method of a file that did not open.
        (*log).base.pMethods = std::ptr::null();
        return rc;
    }
    log.write(LogFile {
        base: ffi::sqlite3_file {
            pMethods: &LOG_METHODS,
        },
        real: inner,
        held: Box::into_raw(Box::new(Held {
            start: 0,
            bytes: Vec::new(),
            copy: Vec::new(),
        })),
    });
    ffi::SQLITE_OK
}

unsafe extern "C" fn delete(vfs: *mut ffi::sqlite3_vfs, name: *const c_char, sync: c_int) -> c_int {
    let r = real(vfs);
    (*r).xDelete.map_or(ffi::SQLITE_ERROR, |f| f(r, name, sync))
}

unsafe extern "C" fn access(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    flags: c_int,
    out: *mut c_int,
) -> c_int {
    let r = real(vfs);
    (*r).xAccess
        .map_or(ffi::SQLITE_ERROR, |f| f(r, name, flags, out))
}

unsafe extern "C" fn full_pathname(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    n: c_int,
    out: *mut c_char,
) -> c_int {
    let r = real(vfs);
    (*r).xFullPathname
        .map_or(ffi::SQLITE_ERROR, |f| f(r, name, n, out))
}

unsafe extern "C" fn randomness(vfs: *mut ffi::sqlite3_vfs, n: c_int, out: *mut c_char) -> c_int {
    let r = real(vfs);
    (*r).xRandomness.map_or(0, |f| f(r, n, out))
}

unsafe extern "C" fn sleep(vfs: *mut ffi::sqlite3_vfs, micros: c_int) -> c_int {
    let r = real(vfs);
    (*r).xSleep.map_or(0, |f| f(r, micros))
}

unsafe extern "C" fn current_time(vfs: *mut ffi::sqlite3_vfs, out: *mut f64) -> c_int {
    let r = real(vfs);
    (*r).xCurrentTime.map_or(ffi::SQLITE_ERROR, |f| f(r, out))
}

unsafe extern "C" fn last_error(vfs: *mut ffi::sqlite3_vfs, n: c_int, out: *mut c_char) -> c_int {
    let r = real(vfs);
    (*r).xGetLastError.map_or(0, |f| f(r, n, out))
}

unsafe extern "C" fn current_time_i64(vfs: *mut ffi::sqlite3_vfs, out: *mut i64) -> c_int {
    let r = real(vfs);
    (*r).xCurrentTimeInt64
        .map_or(ffi::SQLITE_ERROR, |f| f(r, out))
}

/// The methods of a log file: writes held, everything else after writing what is held.
static LOG_METHODS: ffi::sqlite3_io_methods = ffi::sqlite3_io_methods {
    iVersion: 1,
    xClose: Some(close),
    xRead: Some(read),
    xWrite: Some(write),
    xTruncate: Some(truncate),
    xSync: Some(sync),
    xFileSize: Some(file_size),
    xLock: Some(lock),
    xUnlock: Some(unlock),
    xCheckReservedLock: Some(check_reserved_lock),
    xFileControl: Some(file_control),
    xSectorSize: Some(sector_size),
    xDeviceCharacteristics: Some(device_characteristics),
    xShmMap: None,
    xShmLock: None,
    xShmBarrier: None,
    xShmUnmap: None,
    xFetch: None,
    xUnfetch: None,
};

/// The default VFS's file under `file`, and its methods.
unsafe fn inner(
    file: *mut ffi::sqlite3_file,
) -> (*mut ffi::sqlite3_file, &'static ffi::sqlite3_io_methods) {
    let real = (*file.cast::<LogFile>()).real;
    (real, &*(*real).pMethods)
}

/// Writes what is held. On an error what was held is dropped: SQLite rolls the commit back
/// and writes its frames again.
unsafe fn flush(file: *mut ffi::sqlite3_file) -> c_int {
    let held = &mut *(*file.cast::<LogFile>()).held;
    if held.bytes.is_empty() {
        return ffi::SQLITE_OK;
    }
    let (real, methods) = inner(file);
    let rc = match methods.xWrite {
        // At most LIMIT bytes are held, so the length fits.
        Some(write) => write(
            real,
            held.bytes.as_ptr().cast(),
            held.bytes.len() as c_int,
            held.start,
        ),
        None => ffi::SQLITE_IOERR_WRITE,
    };
    #[cfg(test)]
    WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    held.bytes.clear();
    if rc != ffi::SQLITE_OK {
        held.forget_from(held.start);
    }
    rc
}

unsafe extern "C" fn close(file: *mut ffi::sqlite3_file) -> c_int {
    let rc = flush(file);
    let (real, methods) = inner(file);
    let closed = methods.xClose.map_or(ffi::SQLITE_OK, |f| f(real));
    drop(Box::from_raw((*file.cast::<LogFile>()).held));
    if rc != ffi::SQLITE_OK {
        rc
    } else {
        closed
    }
}

unsafe extern "C" fn write(
    file: *mut ffi::sqlite3_file,
    buf: *const c_void,
    amount: c_int,
    offset: i64,
) -> c_int {
    let n = amount.max(0) as usize;
    let data = std::slice::from_raw_parts(buf.cast::<u8>(), n);
    // Borrowed only in short scopes: `flush` borrows what is held too.
    let held: *mut Held = (*file.cast::<LogFile>()).held;
    (*held).copy_write(offset, data);
    let appends = {
        let h = &*held;
        !h.bytes.is_empty()
            && offset == h.start + h.bytes.len() as i64
            && h.bytes.len() + n <= LIMIT
    };
    if !appends {
        let rc = flush(file);
        if rc != ffi::SQLITE_OK {
            return rc;
        }
        if n > LIMIT {
            let (real, methods) = inner(file);
            #[cfg(test)]
            WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let rc = methods
                .xWrite
                .map_or(ffi::SQLITE_IOERR_WRITE, |f| f(real, buf, amount, offset));
            if rc != ffi::SQLITE_OK {
                (*held).forget_from(offset);
            }
            return rc;
        }
        (*held).start = offset;
    }
    (*held).bytes.extend_from_slice(data);
    ffi::SQLITE_OK
}

/// Runs `then` on the default VFS's file once what is held is written.
unsafe fn flushed(
    file: *mut ffi::sqlite3_file,
    then: impl FnOnce(*mut ffi::sqlite3_file, &'static ffi::sqlite3_io_methods) -> c_int,
) -> c_int {
    let rc = flush(file);
    if rc != ffi::SQLITE_OK {
        return rc;
    }
    let (real, methods) = inner(file);
    then(real, methods)
}

unsafe extern "C" fn read(
    file: *mut ffi::sqlite3_file,
    buf: *mut c_void,
    amount: c_int,
    offset: i64,
) -> c_int {
    let held = &*(*file.cast::<LogFile>()).held;
    if let Some(bytes) = held.copied(offset, amount.max(0) as usize) {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.cast::<u8>(), bytes.len());
        #[cfg(test)]
        COPY_READS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        return ffi::SQLITE_OK;
    }
    flushed(file, |r, m| {
        m.xRead
            .map_or(ffi::SQLITE_IOERR_READ, |f| f(r, buf, amount, offset))
    })
}

unsafe extern "C" fn truncate(file: *mut ffi::sqlite3_file, size: i64) -> c_int {
    (*(*file.cast::<LogFile>()).held).forget_from(size);
    flushed(file, |r, m| {
        m.xTruncate
            .map_or(ffi::SQLITE_IOERR_TRUNCATE, |f| f(r, size))
    })
}

unsafe extern "C" fn sync(file: *mut ffi::sqlite3_file, flags: c_int) -> c_int {
    flushed(file, |r, m| {
        m.xSync.map_or(ffi::SQLITE_IOERR_FSYNC, |f| f(r, flags))
    })
}

unsafe extern "C" fn file_size(file: *mut ffi::sqlite3_file, size: *mut i64) -> c_int {
    flushed(file, |r, m| {
        m.xFileSize.map_or(ffi::SQLITE_IOERR_FSTAT, |f| f(r, size))
    })
}

unsafe extern "C" fn file_control(
    file: *mut ffi::sqlite3_file,
    op: c_int,
    arg: *mut c_void,
) -> c_int {
    flushed(file, |r, m| {
        m.xFileControl
            .map_or(ffi::SQLITE_NOTFOUND, |f| f(r, op, arg))
    })
}

unsafe extern "C" fn lock(file: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    let (r, m) = inner(file);
    m.xLock.map_or(ffi::SQLITE_OK, |f| f(r, level))
}

unsafe extern "C" fn unlock(file: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    let (r, m) = inner(file);
    m.xUnlock.map_or(ffi::SQLITE_OK, |f| f(r, level))
}

unsafe extern "C" fn check_reserved_lock(file: *mut ffi::sqlite3_file, out: *mut c_int) -> c_int {
    let (r, m) = inner(file);
    m.xCheckReservedLock.map_or(ffi::SQLITE_OK, |f| f(r, out))
}

unsafe extern "C" fn sector_size(file: *mut ffi::sqlite3_file) -> c_int {
    let (r, m) = inner(file);
    m.xSectorSize.map_or(4096, |f| f(r))
}

unsafe extern "C" fn device_characteristics(file: *mut ffi::sqlite3_file) -> c_int {
    let (r, m) = inner(file);
    m.xDeviceCharacteristics.map_or(0, |f| f(r))
}

#[cfg(test)]
mod tests;
