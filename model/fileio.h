/* SPDX-License-Identifier: MIT */
/*
 * File input and output for every commroof reader and writer: one way to
 * open an input and one way to write an output, so that no command hangs on
 * a FIFO given as input and no output replaces a device node.
 *
 * Input: cr_file_open_read() opens with O_NONBLOCK (opening a FIFO for
 * reading never waits for a writer), checks with fstat() that it is a
 * regular file and only then reads; anything else (a FIFO, a directory, a
 * device, a socket) is refused with a message naming the path and what it
 * is. One exception, for readers that stream (traces, nccl-tests logs,
 * JSON results) and ask for it with CR_FILE_STREAM: a pipe reached through
 * a symbolic link, as /dev/stdin and /dev/fd/N (a shell's <(...)) are, is
 * read as the stream it is (`gzip -dc t.json.gz | commroof validate
 * /dev/stdin`); even then a named FIFO given by its own path is refused.
 * Reading stdin ("-") is the caller's choice, made before this.
 *
 * Output: cr_file_write() writes a regular file (or a new one) atomically,
 * through a temporary file beside it and a rename, so the path holds the
 * old or the new contents, never half. A character device (/dev/null,
 * /dev/stdout on a terminal) or a FIFO (/dev/stdout on a pipe, a shell's
 * >(...)) is written in place: renaming over it would replace the device
 * node with a regular file. Anything else (a directory, a block device, a
 * socket) is refused. A symbolic link is followed: the file it names is
 * written, the link stays.
 */
#ifndef CR_FILEIO_H
#define CR_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "status.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* Names the type of file of st_mode for messages: "a directory", "a FIFO
 * (named pipe)", "a character device", "a block device", "a socket", "a
 * symbolic link", "a regular file", else "not a regular file". Static. */
const char *cr_file_kind_name(unsigned st_mode);

/* Options for cr_file_open_read(), OR-ed together. */
enum {
    CR_FILE_STREAM = 1u << 0 /* also a pipe reached through a link (/dev/stdin, /dev/fd/N) */
};

/* Opens the regular file at path for reading, without blocking on a FIFO.
 * what names what was expected, with its article ("a topology XML file"),
 * for the message about a file that is not regular; flags are CR_FILE_*
 * options (0: regular files only). On success *fd is an
 * open, blocking, close-on-exec descriptor of a regular file, the caller's
 * to close(). On failure *fd is -1 and sys_errno (may be NULL) holds the
 * errno of a failed open() or fstat(), or 0 when the path opened but is not
 * a regular file. Errors, d reading "path: ...": CR_ENOTFOUND (no such
 * file: "path: cannot open: No such file or directory"), CR_EIO (cannot
 * open, or "path: a FIFO (named pipe), not a regular file: give WHAT";
 * a NULL path: "no file given: give WHAT"). */
cr_status cr_file_open_read(const char *path, const char *what, unsigned flags, int *fd,
                            int *sys_errno, cr_diag *d);

/* cr_file_open_read() as a stdio stream opened "rb". On success *out is
 * the caller's to fclose(); on failure it is NULL. Errors as
 * cr_file_open_read(), and CR_ENOMEM. */
cr_status cr_file_fopen_read(const char *path, const char *what, unsigned flags, FILE **out,
                             cr_diag *d);

/* Reads the whole regular file open on fd (from cr_file_open_read(), path
 * naming it in messages) into new NUL-terminated memory: *out, *len bytes
 * before the NUL. Its size decides before a byte is read: one over
 * max_bytes is CR_ERANGE with *size set to it and d untouched (a cr_diag
 * keeps its first message: the caller words this one for its format); a
 * read that fails or a file that shrinks is CR_EIO with *sys_errno (may be
 * NULL) the errno, 0 where it shrank; CR_ENOMEM. On failure *out is NULL.
 * fd stays open. */
cr_status cr_file_read_fd(int fd, const char *path, size_t max_bytes, char **out, size_t *len,
                          long long *size, int *sys_errno, cr_diag *d);

/* Writes len bytes of data to path (see the top of this file): atomically
 * through a temporary file beside it and a rename when path is absent or a
 * regular file (an existing file keeps its permissions; a new one gets
 * 0644); in place when it is a character device or a FIFO (a FIFO that no
 * process reads is refused rather than waited on). Errors: CR_EIO with d
 * "path: ..." and the system's reason ("cannot write: No space left on
 * device" on /dev/full; "a directory, not a file that can be written"; "a
 * FIFO (named pipe) that no process reads"), CR_ENOMEM. On failure a
 * regular file at path is left as it was. */
cr_status cr_file_write(const char *path, const void *data, size_t len, cr_diag *d);

/* Moves tmp, a finished file beside path (same folder), to path as
 * cr_file_write() would write it: renamed over path when path is absent or
 * a regular file; copied into place and removed when path is a character
 * device, a FIFO or a symbolic link. On failure tmp is left for the caller
 * to remove. Errors as cr_file_write(). */
cr_status cr_file_commit(const char *tmp, const char *path, cr_diag *d);

/* Creates folder dir and the folders above it that are missing (mkdir -p).
 * Errors: CR_EIO with d "cannot create PATH: reason" or "PATH exists and
 * is not a folder", CR_ENOMEM. */
cr_status cr_file_mkdirs(const char *dir, cr_diag *d);

/* Makes a fresh empty folder beside dir ("DIR.partXXXXXX", its parent
 * created if missing) for a result to be written into whole before
 * cr_file_commit_dir() moves it to dir; its path goes to stage (size bytes).
 * Errors: CR_EIO, CR_EINVAL (the name does not fit, or its last part is
 * "." or "..", which cannot be moved aside). */
cr_status cr_file_stage_dir(const char *dir, char *stage, size_t size, cr_diag *d);

/* Moves the finished folder stage (from cr_file_stage_dir) to dir: renamed
 * into place when dir is absent; an existing folder dir is moved aside,
 * replaced, and removed only then (on a failure it is put back). Errors:
 * CR_EIO with d "dir: reason" (dir a file, not a folder; a rename refused);
 * stage is left for the caller to remove. */
cr_status cr_file_commit_dir(const char *stage, const char *dir, cr_diag *d);

/* Whether a and b are regular files of the same bytes (one file under two
 * names too). Unreadable files are not the same as anything. */
bool cr_file_same_content(const char *a, const char *b);

/* The first of paths[0..n) that repeats an earlier one, as a loop over i
 * and, for each, over j < i would find it: one file under two names (or
 * one name twice: the same device and inode) before, for the same i, a
 * regular file of the same bytes (cr_file_same_content). Each path is
 * stat'ed once; only files whose size another has are read, once each to
 * hash them, and a pair of the same size and hash is compared byte for
 * byte: O(n log n) and about one read per file, not a comparison of every
 * pair. Returns 0 (none), 1 (the same file) or 2 (the same content) with
 * *first = j and *second = i; -1 when out of memory. opens, when not NULL,
 * is increased by the files opened to read their bytes. */
int cr_files_first_repeat(const char *const *paths, int n, int *first, int *second, long *opens);

/* Removes folder dir and everything under it (symbolic links themselves,
 * never their targets); best effort, for cleaning up a stage. */
void cr_file_remove_tree(const char *dir);

#pragma GCC visibility pop

#endif
