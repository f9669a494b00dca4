// Evaluates jsonnet with jsonnet-evaluator.wasm (rsjsonnet, compiled from native/jsonnet) under
// a WASI host of our own. Node 20's `node:wasi` keeps the view of the module's memory it took
// at the start and does not renew it when the memory grows: a large config's evaluation then
// wrote through freed memory (a crash, or the output silently lost). This host reads the
// memory's current buffer on every call, and offers only what the evaluator uses: its
// arguments, clocks, randomness, reading files and directories, and stdout and stderr, which
// it keeps in memory. It writes nothing to the file system. It notes every file the evaluation
// reads and every path it looks for in vain: what a watch must watch.
import { randomFillSync } from "node:crypto";
import { closeSync, fstatSync, lstatSync, openSync, readFileSync, readSync, readlinkSync, statSync } from "node:fs";
import path from "node:path";

/** WASI errno values (wasi_snapshot_preview1). */
const Errno = { Success: 0, Acces: 2, Badf: 8, Inval: 28, Io: 29, Isdir: 31, Loop: 32, Nametoolong: 37, Noent: 44, Notdir: 54, Perm: 63 };
/** Node's error codes as WASI errno values; any other failure is `Io`. */
const ERRNO_OF_CODE = { ENOENT: Errno.Noent, EACCES: Errno.Acces, EPERM: Errno.Perm, ENOTDIR: Errno.Notdir, EISDIR: Errno.Isdir, ELOOP: Errno.Loop, EINVAL: Errno.Inval, ENAMETOOLONG: Errno.Nametoolong, EBADF: Errno.Badf };
/** WASI file types. */
const FileType = { Unknown: 0, BlockDevice: 1, CharacterDevice: 2, Directory: 3, RegularFile: 4, SocketStream: 6, SymbolicLink: 7 };
/** `path_open` flags; those that would create or change a file are refused: this host only reads. */
const O_CREAT = 1;
const O_DIRECTORY = 2;
const O_EXCL = 4;
const O_TRUNC = 8;
/** The lookup flag of `path_filestat_get` that follows a final symbolic link. */
const LOOKUP_SYMLINK_FOLLOW = 1;
/** Every right: a descriptor's rights are not what protects the files here (opening for writing is refused). */
const ALL_RIGHTS = 0x1fffffffn;
/** The one preopened directory: the whole file system (a config may import any file it can name). */
const ROOT_FD = 3;

let compiled;

/** The evaluator's module, compiled on first use (about 7 ms) and kept for the process. */
function evaluatorModule() {
  compiled ??= new WebAssembly.Module(readFileSync(new URL("./jsonnet-evaluator.wasm", import.meta.url)));
  return compiled;
}

/** Thrown by `proc_exit` to leave the module's `_start`. */
class ProcessExit {
  constructor(status) {
    this.status = status;
  }
}

/**
 * Evaluates the jsonnet file `file`; imports are looked up beside the importing file, then in
 * `searchPath` in order (the first that holds one wins).
 * @param {string} file as the user named it: absolute, or relative to the working directory
 * @param {readonly string[]} searchPath directories, absolute or relative to the working directory
 * @returns {({ ok: true, json: Buffer } | { ok: false, message: string }) & { read: string[], missing: string[] }} the JSON's
 *   UTF-8 bytes, or rsjsonnet's report; with the files read (absolute, in order) and the paths looked for but absent
 */
export function evaluateJsonnetFile(file, searchPath) {
  // The evaluator starts in "/": it is told this process's directory, so the file keeps the name it was given.
  const host = new WasiHost(["jsonnet-evaluator", process.cwd(), file, ...searchPath.map((dir) => path.resolve(dir))]);
  const instance = new WebAssembly.Instance(evaluatorModule(), { wasi_snapshot_preview1: host.imports() });
  host.memory = instance.exports.memory;
  let status = 0;
  let trap;
  try {
    instance.exports._start();
  } catch (error) {
    if (error instanceof ProcessExit) status = error.status;
    else trap = error;
  } finally {
    host.closeAll();
  }
  const reads = { read: [...host.read], missing: [...host.missing].filter((file) => !host.read.has(file)) };
  if (status === 0 && trap === undefined) return { ok: true, json: Buffer.concat(host.stdout), ...reads };
  // Rust's hint about RUST_BACKTRACE is for the evaluator's developers, not for a config's author.
  const report = Buffer.concat(host.stderr)
    .toString("utf8")
    .replace(/^note: run with `RUST_BACKTRACE=1`.*\n?/m, "")
    .trim();
  // A trap is a panic (its message is on stderr) or the memory running out.
  const reason = trap === undefined ? "" : `the evaluator stopped: ${trap instanceof Error ? trap.message : String(trap)}`;
  return { ok: false, message: [report, reason].filter(Boolean).join("\n") || `the evaluator exited with status ${status}`, ...reads };
}

/** The WASI calls of one evaluation, over Node's synchronous file system calls. */
class WasiHost {
  /** @type {WebAssembly.Memory | undefined} */
  memory;
  /** @type {Buffer[]} */
  stdout = [];
  /** @type {Buffer[]} */
  stderr = [];
  /** Files opened for reading, and paths asked about that did not exist. */
  read = new Set();
  missing = new Set();
  /** Open descriptors beyond stdio: a directory (a path) or a file (a host descriptor and its path). */
  #fds = new Map([[ROOT_FD, { path: "/", hostFd: undefined }]]);
  #nextFd = ROOT_FD + 1;
  #args;

  constructor(args) {
    this.#args = args.map((arg) => Buffer.from(`${arg}\0`, "utf8"));
  }

  /** Views of the memory as it is now: a `memory.grow` replaces its buffer. */
  #view() {
    return new DataView(this.memory.buffer);
  }

  #bytes(pointer, length) {
    return new Uint8Array(this.memory.buffer, pointer, length);
  }

  #string(pointer, length) {
    return Buffer.from(this.memory.buffer, pointer, length).toString("utf8");
  }

  /** The host path of `relative` under the directory descriptor `fd`, or an errno. */
  #resolve(fd, pointer, length) {
    const dir = this.#fds.get(fd);
    if (dir === undefined || dir.hostFd !== undefined) return Errno.Badf;
    return path.resolve(dir.path, this.#string(pointer, length));
  }

  /** `call()`, noting `target` as missing when it does not exist. */
  #noting(target, call) {
    try {
      return call();
    } catch (error) {
      if (error?.code === "ENOENT") this.missing.add(target);
      throw error;
    }
  }

  #writeFilestat(pointer, stats) {
    const view = this.#view();
    view.setBigUint64(pointer, stats.dev, true);
    view.setBigUint64(pointer + 8, stats.ino, true);
    view.setUint8(pointer + 16, fileTypeOf(stats));
    view.setBigUint64(pointer + 24, stats.nlink, true);
    view.setBigUint64(pointer + 32, stats.size, true);
    view.setBigUint64(pointer + 40, stats.atimeNs, true);
    view.setBigUint64(pointer + 48, stats.mtimeNs, true);
    view.setBigUint64(pointer + 56, stats.ctimeNs, true);
  }

  /** Closes what the evaluation left open (it stops at its first error). */
  closeAll() {
    for (const { hostFd } of this.#fds.values()) if (hostFd !== undefined) closeSync(hostFd);
    this.#fds.clear();
  }

  imports() {
    const calls = {
      args_sizes_get: (countPointer, sizePointer) => {
        const view = this.#view();
        view.setUint32(countPointer, this.#args.length, true);
        view.setUint32(sizePointer, this.#args.reduce((sum, arg) => sum + arg.length, 0), true);
      },
      args_get: (argvPointer, bufferPointer) => {
        const view = this.#view();
        let at = bufferPointer;
        this.#args.forEach((arg, index) => {
          view.setUint32(argvPointer + 4 * index, at, true);
          this.#bytes(at, arg.length).set(arg);
          at += arg.length;
        });
      },
      environ_sizes_get: (countPointer, sizePointer) => {
        const view = this.#view();
        view.setUint32(countPointer, 0, true);
        view.setUint32(sizePointer, 0, true);
      },
      environ_get: () => {},
      clock_time_get: (clock, _precision, timePointer) => {
        const now = clock === 0 ? BigInt(Date.now()) * 1_000_000n : process.hrtime.bigint();
        this.#view().setBigUint64(timePointer, now, true);
      },
      random_get: (pointer, length) => {
        randomFillSync(this.#bytes(pointer, length));
      },
      fd_prestat_get: (fd, pointer) => {
        if (fd !== ROOT_FD) return Errno.Badf;
        const view = this.#view();
        view.setUint8(pointer, 0); // a directory
        view.setUint32(pointer + 4, 1, true); // the length of its name, "/"
      },
      fd_prestat_dir_name: (fd, pointer, length) => {
        if (fd !== ROOT_FD || length < 1) return Errno.Badf;
        this.#bytes(pointer, 1)[0] = 0x2f;
      },
      fd_fdstat_get: (fd, pointer) => {
        const entry = this.#fds.get(fd);
        if (fd > 2 && entry === undefined) return Errno.Badf;
        const view = this.#view();
        const type = fd <= 2 ? FileType.CharacterDevice : entry.hostFd === undefined ? FileType.Directory : FileType.RegularFile;
        view.setUint8(pointer, type);
        view.setUint16(pointer + 2, 0, true);
        view.setBigUint64(pointer + 8, ALL_RIGHTS, true);
        view.setBigUint64(pointer + 16, ALL_RIGHTS, true);
      },
      fd_filestat_get: (fd, pointer) => {
        const entry = this.#fds.get(fd);
        if (entry === undefined) return Errno.Badf;
        this.#writeFilestat(pointer, entry.hostFd === undefined ? statSync(entry.path, { bigint: true }) : fstatSync(entry.hostFd, { bigint: true }));
      },
      path_filestat_get: (fd, lookup, pathPointer, pathLength, pointer) => {
        const target = this.#resolve(fd, pathPointer, pathLength);
        if (typeof target === "number") return target;
        const stats = this.#noting(target, () => (lookup & LOOKUP_SYMLINK_FOLLOW ? statSync(target, { bigint: true }) : lstatSync(target, { bigint: true })));
        this.#writeFilestat(pointer, stats);
      },
      path_readlink: (fd, pathPointer, pathLength, pointer, length, usedPointer) => {
        const target = this.#resolve(fd, pathPointer, pathLength);
        if (typeof target === "number") return target;
        const link = readlinkSync(target, { encoding: "buffer" });
        const used = Math.min(link.length, length);
        this.#bytes(pointer, used).set(link.subarray(0, used));
        this.#view().setUint32(usedPointer, used, true);
      },
      path_open: (fd, _lookup, pathPointer, pathLength, openFlags, _rights, _inherited, _fdFlags, fdPointer) => {
        if (openFlags & (O_CREAT | O_EXCL | O_TRUNC)) return Errno.Perm;
        const target = this.#resolve(fd, pathPointer, pathLength);
        if (typeof target === "number") return target;
        let entry;
        if (openFlags & O_DIRECTORY) {
          if (!this.#noting(target, () => statSync(target)).isDirectory()) return Errno.Notdir;
          entry = { path: target, hostFd: undefined };
        } else {
          entry = { path: target, hostFd: this.#noting(target, () => openSync(target, "r")) };
          this.read.add(target);
        }
        const opened = this.#nextFd++;
        this.#fds.set(opened, entry);
        this.#view().setUint32(fdPointer, opened, true);
      },
      fd_read: (fd, iovecs, count, readPointer) => {
        if (fd === 0) return void this.#view().setUint32(readPointer, 0, true); // stdin is empty
        const entry = this.#fds.get(fd);
        if (entry === undefined) return Errno.Badf;
        if (entry.hostFd === undefined) return Errno.Isdir;
        let total = 0;
        for (let index = 0; index < count; index++) {
          const view = this.#view();
          const pointer = view.getUint32(iovecs + 8 * index, true);
          const length = view.getUint32(iovecs + 8 * index + 4, true);
          const read = readSync(entry.hostFd, this.#bytes(pointer, length), 0, length, null);
          total += read;
          if (read < length) break;
        }
        this.#view().setUint32(readPointer, total, true);
      },
      fd_write: (fd, iovecs, count, writtenPointer) => {
        const sink = fd === 1 ? this.stdout : fd === 2 ? this.stderr : undefined;
        if (sink === undefined) return Errno.Badf;
        const view = this.#view();
        let total = 0;
        for (let index = 0; index < count; index++) {
          const pointer = view.getUint32(iovecs + 8 * index, true);
          const length = view.getUint32(iovecs + 8 * index + 4, true);
          sink.push(Buffer.from(this.#bytes(pointer, length))); // a copy: the memory is reused
          total += length;
        }
        view.setUint32(writtenPointer, total, true);
      },
      fd_close: (fd) => {
        const entry = this.#fds.get(fd);
        if (entry === undefined) return fd <= 2 ? Errno.Success : Errno.Badf;
        if (entry.hostFd !== undefined) closeSync(entry.hostFd);
        this.#fds.delete(fd);
      },
      proc_exit: (status) => {
        throw new ProcessExit(status);
      },
    };
    // Every call answers an errno: success unless it returned one, or a file system call threw.
    return Object.fromEntries(
      Object.entries(calls).map(([name, call]) => [
        name,
        (...args) => {
          try {
            return call(...args) ?? Errno.Success;
          } catch (error) {
            if (error instanceof ProcessExit) throw error;
            const errno = ERRNO_OF_CODE[error?.code];
            if (errno === undefined && !error?.code) throw error; // a bug here, not a file system answer
            return errno ?? Errno.Io;
          }
        },
      ]),
    );
  }
}

function fileTypeOf(stats) {
  if (stats.isFile()) return FileType.RegularFile;
  if (stats.isDirectory()) return FileType.Directory;
  if (stats.isSymbolicLink()) return FileType.SymbolicLink;
  if (stats.isCharacterDevice()) return FileType.CharacterDevice;
  if (stats.isBlockDevice()) return FileType.BlockDevice;
  if (stats.isSocket()) return FileType.SocketStream;
  return FileType.Unknown;
}
