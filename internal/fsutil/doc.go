// Package fsutil owns writing files so that readers never see half of one
// and no output destroys what it should not: every model, vocabulary,
// report, CSV and plot that nbtext writes goes through WriteFile or
// WriteFiles.
//
// A write goes to a temporary file ".NAME.tmp-PID-RANDOM" in the
// destination's folder, is synced, renamed over the destination, and the
// folder is synced (restic's pattern). On any error the temporary file is
// removed and the destination is left as it was. The rules:
//
//   - Only regular files are written. A destination that exists and is a
//     folder, device, named pipe or socket is refused (ErrNotRegular), so
//     that `-o /dev/null` run as root cannot turn the device into a file and
//     a pipe's reader is not left waiting. A symlink to a regular file is
//     written through: the file it points to is replaced and the link stays.
//     A dangling symlink, or one to a non-regular file, is refused.
//   - Modes: a new file gets 0666 masked by the umask, as a shell
//     redirection would; a replaced file keeps its permission bits (the
//     temporary file is created with them, so its content is never more
//     readable than the file it replaces).
//   - CheckOutput refuses an output that is the same file as an input
//     (same device and inode, whatever the names), or an existing file
//     inside an input folder (ErrInput).
//   - WriteFiles commits several files together: every temporary file is
//     written and synced before the first rename, so a failure or a kill
//     while writing leaves all the old files; only a kill between the
//     renames themselves (microseconds) can leave some new and some old.
//   - Temporary files: CleanupOnSignal removes those of writes in progress
//     on SIGINT, SIGTERM or SIGHUP before the process dies of the signal.
//     A kill -9 (or an out-of-memory kill) cannot be caught and may leave a
//     hidden ".NAME.tmp-PID-RANDOM" beside the destination, never a broken
//     destination; the next successful write of the same destination
//     removes the temporary files of that name whose process has ended.
//
// It also owns the scratch files nbtext reads back itself (Scratch: spools,
// row caches): unlinked as soon as they are created where the system
// allows it, so that no kill leaves one behind.
package fsutil
