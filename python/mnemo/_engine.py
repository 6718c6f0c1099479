"""The engine component hosted by wasmtime: the `host` interface written in Python (clock,
embedder, LLM), and one open store."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, Union

import wasmtime
from wasmtime import component as wc

from ._calls import Calls
from ._workspace import Workspace

#: The interface names of the component's world (`wasm/wit/mnemo.wit`).
HOST = "mnemo:engine/host@0.1.0"
ENGINE = "mnemo:engine/engine@0.1.0"

#: The store path that keeps a store in memory only.
MEMORY = ":memory:"

#: SQLite's page size for the stores this host creates. Every file call the engine makes is a
#: host call, and wasmtime's C API (under wasmtime-py) runs each on a thread pool and waits for
#: it, so fewer, larger pages write faster here than SQLite's 4 KiB: 16 KiB seeded faster and
#: wrote single memories faster; 64 KiB seeded a little faster still but wrote single memories
#: slower (`npm run bench:wasmtime`, docs/BENCHMARKS.md).
PAGE_SIZE = 16_384

#: A clock: milliseconds since the Unix epoch, fixed (`int`) or asked each time (a callable).
Clock = Union[int, Callable[[], int]]
#: A host embedding model: `(model name, dimension, embed(texts) -> vectors)`.
Embed = tuple[str, int, Callable[[list[str]], Sequence[Sequence[float]]]]
#: A host LLM: `ask(instructions, text) -> answer`; the engine checks the answer.
Extract = Callable[[str, str], str]


class MnemoError(Exception):
    """An engine error: `code` (`invalid_input`, `not_found`, …), the message, and for a bad
    argument its `path` (`args.items[0].importance`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.path: Optional[str] = None
        if code == "invalid_input" and message.startswith("invalid "):
            self.path = message[len("invalid "):].split(":", 1)[0]

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def _component_path() -> Path:
    """The engine component shipped in the package (`mnemo/mnemo.wasm`), or `MNEMO_COMPONENT`."""
    given = os.environ.get("MNEMO_COMPONENT")
    if given:
        return Path(given)
    return Path(str(resources.files("mnemo").joinpath("mnemo.wasm")))


def _hold(file: Path) -> Any:
    """The OS lock on store `file` (`<file>.mnemo-lock`), held while it is open: two processes
    never share a store. Holding it, a SQLite lock directory left by a crash (SQLite under WASI
    locks with `<file>.lock`) is stale, and cleared."""
    handle = open(f"{file}.mnemo-lock", "a+b")
    try:
        if sys.platform == "win32":
            import msvcrt

            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise MnemoError(
            "store_locked", f"the store {file} is open elsewhere (another Mnemo, or another process); close it first"
        ) from None
    stale = Path(f"{file}.lock")
    if stale.is_dir():
        shutil.rmtree(stale, ignore_errors=True)
    elif stale.exists():
        stale.unlink()
    return handle


_ENGINE: Optional[wasmtime.Engine] = None
_COMPONENT: Optional[wc.Component] = None


def _compiled() -> tuple[wasmtime.Engine, wc.Component]:
    """The engine component, compiled once per process; wasmtime's cache keeps the compiled
    code between processes, so a second start skips compiling."""
    global _ENGINE, _COMPONENT
    if _ENGINE is None or _COMPONENT is None:
        config = wasmtime.Config()
        config.cache = True
        _ENGINE = wasmtime.Engine(config)
        _COMPONENT = wc.Component.from_file(_ENGINE, str(_component_path()))
    return _ENGINE, _COMPONENT


class Mnemo(Calls):
    """One open Mnemo store. Every engine call is a method (generated from the engine's call
    schema, see `Calls`), or `call(method, args)` by name. Close it (or use `with`) to leave
    the file whole."""

    _clock: Optional[Clock]
    _embed: Optional[Embed]
    _extract: Optional[Extract]
    _workspace: Optional[Workspace]
    _closed: bool
    _lock: Optional[Any]
    _store: wasmtime.Store
    _instance: wc.Instance
    _handle: wc.ResourceAny
    _call: wc.Func

    def __init__(self, **_: Any) -> None:
        raise TypeError("open a store with Mnemo.open(path)")

    @classmethod
    def open(
        cls,
        path: Union[str, os.PathLike[str]] = MEMORY,
        *,
        config: Optional[dict[str, Any]] = None,
        embed: Optional[Embed] = None,
        extract: Optional[Extract] = None,
        clock: Optional[Clock] = None,
        seed: Optional[int] = None,
        page_size: int = PAGE_SIZE,
        workspace: Optional[Union[str, os.PathLike[str]]] = None,
    ) -> "Mnemo":
        """Opens (creating if needed) the store at `path` (a SQLite file; `":memory:"` keeps it
        in memory). `config` is the engine's `Config`; `embed` a host embedding model as
        `(model, dimension, embed)`; `extract` a host LLM `ask(instructions, text) -> answer`;
        `clock` a fixed time in ms or a callable (default the system clock); `seed` the id
        generator's seed (default from the OS); `page_size` SQLite's page size for a store
        this creates (a power of two from 512 to 65536; an existing file keeps its own);
        `workspace` the project directory whose files memories cite, which consolidation's
        drift detection checks (a memory citing a path that is gone is invalidated, and
        restored when it is back)."""
        _check_options(config, embed, extract, clock, seed, page_size)
        checked = None if workspace is None else Workspace(workspace)
        self = object.__new__(cls)
        self._clock = clock
        self._embed = embed
        self._extract = extract
        self._workspace = checked
        self._closed = False
        self._lock = None
        engine, component = _compiled()
        linker = wc.Linker(engine)
        linker.add_wasip2()
        with linker.root() as root:
            with root.add_instance(HOST) as host:
                host.add_func("now", lambda _store: self._now())
                host.add_func("embedder", lambda _store: self._embedder())
                host.add_func("embed", lambda _store, texts: self._vectors(texts))
                host.add_func("extract", lambda _store, i, text, _now: self._ask(i, text))
                host.add_func("workspace", lambda _store, paths: self._paths(paths))
        self._store = wasmtime.Store(engine)
        wasi = wasmtime.WasiConfig()
        if str(path) == MEMORY:
            inner = MEMORY
        else:
            file = Path(path).resolve()
            if file.is_dir():
                raise MnemoError("invalid_input", f"invalid path: {file} is a directory")
            if not file.parent.is_dir():
                raise MnemoError("invalid_input", f"invalid path: no directory {file.parent}")
            self._lock = _hold(file)
            wasi.preopen_dir(str(file.parent), "/store")
            inner = f"/store/{file.name}"
        try:
            self._store.set_wasi(wasi)
            self._instance = linker.instantiate(self._store, component)
            options = wc.Record()
            setattr(options, "path", inner)
            setattr(options, "seed", seed if seed is not None else int.from_bytes(os.urandom(8), "little"))
            setattr(options, "config", json.dumps(config) if config else "")
            setattr(options, "page-size", page_size)
            self._handle = self._answer(self._func("[static]store.open")(self._store, options))
        except BaseException:
            self._release()
            raise
        self._call = self._func("[method]store.call")
        return self

    def _func(self, name: str) -> wc.Func:
        iface = self._instance.get_export_index(self._store, ENGINE)
        index = self._instance.get_export_index(self._store, name, iface)
        func = None if index is None else self._instance.get_func(self._store, index)
        if func is None:
            raise MnemoError("internal", f"the engine component has no {name}")
        return func

    @staticmethod
    def _answer(value: Any) -> Any:
        """A call's `result<T, error>`: the value, or the engine's error raised."""
        if isinstance(value, wc.Record) and hasattr(value, "code"):
            raise MnemoError(getattr(value, "code"), getattr(value, "message"))
        return value

    # The host interface.
    def _now(self) -> int:
        clock = self._clock
        if clock is None:
            return int(time.time() * 1000)
        if not callable(clock):
            return clock
        now = clock()
        if isinstance(now, bool) or not isinstance(now, int) or not 0 <= now < 2**63:
            raise MnemoError("invalid_input", f"invalid clock: it gave {now!r}, not milliseconds (an int)")
        return now

    def _embedder(self) -> Optional[wc.Record]:
        if self._embed is None:
            return None
        info = wc.Record()
        setattr(info, "model", self._embed[0])
        setattr(info, "dimension", self._embed[1])
        return info

    def _vectors(self, texts: list[str]) -> Union[list[list[float]], str]:
        if self._embed is None:
            return "this store has no host embedding model"
        try:
            return [[float(x) for x in v] for v in self._embed[2](list(texts))]
        except Exception as e:  # the engine reports it, named
            return f"the embedding model failed: {e}"

    def _ask(self, instructions: str, text: str) -> Optional[wc.Variant]:
        if self._extract is None:
            return None
        try:
            return wc.Variant("ok", str(self._extract(instructions, text)))
        except Exception as e:  # the engine falls back and says why
            return wc.Variant("err", str(e))

    def _paths(self, paths: list[str]) -> Optional[list[wc.Variant]]:
        return None if self._workspace is None else self._workspace.states(list(paths))

    # Calls.
    def call(self, method: str, args: Optional[dict[str, Any]] = None) -> Any:
        """Runs one engine call by its name with its arguments (JSON-able values); the answer
        as parsed JSON. Raises `MnemoError` with the engine's code and the bad argument's path."""
        if self._closed:
            raise MnemoError("closed", "the store is closed")
        try:
            text = json.dumps(args if args is not None else {}, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise MnemoError("invalid_input", f"invalid args: not JSON ({e})") from None
        return json.loads(self.call_json(method, text))

    def call_json(self, method: str, args: str) -> str:
        """Runs one engine call with its arguments as JSON text; the answer's JSON text,
        byte-identical to every other target's."""
        if self._closed:
            raise MnemoError("closed", "the store is closed")
        return str(self._answer(self._call(self._store, self._handle, method, args)))

    def close(self) -> None:
        """Writes what is pending and leaves the file whole (it can be copied and opened
        anywhere). The store cannot be used after."""
        if self._closed:
            return
        self._closed = True
        try:
            self._answer(self._func("[method]store.close")(self._store, self._handle))
        finally:
            # Dropping the handle closes the engine's connection and its SQLite lock.
            self._handle.drop(self._store)
            self._release()

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self) -> "Mnemo":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def now(self) -> int:
        """The store's clock: milliseconds since the Unix epoch, as the engine reads them."""
        return self._now()

    def set_clock(self, clock: Clock) -> None:
        """Replaces the clock (a fixed time in ms, or a callable)."""
        _check_options(None, None, None, clock, None, None)
        self._clock = clock


def _check_options(
    config: Any, embed: Any, extract: Any, clock: Any, seed: Any, page_size: Any
) -> None:
    """Refuses options of the wrong shape before anything opens, naming the option."""

    def bad(field: str, why: str) -> MnemoError:
        return MnemoError("invalid_input", f"invalid {field}: {why}")

    def integer(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    if config is not None and not isinstance(config, dict):
        raise bad("config", f"expected a dict of the engine's settings, not {type(config).__name__}")
    if clock is not None and not callable(clock) and not (integer(clock) and 0 <= clock < 2**63):
        raise bad("clock", "expected milliseconds since the Unix epoch (an int) or a callable giving them")
    if seed is not None and not (integer(seed) and 0 <= seed < 2**64):
        raise bad("seed", "expected an int from 0 to 2**64 - 1")
    # The engine decides which sizes SQLite takes; here only that it is a number to pass.
    if page_size is not None and not (integer(page_size) and 0 <= page_size < 2**32):
        raise bad("page_size", "expected a power of two from 512 to 65536 (an int)")
    if extract is not None and not callable(extract):
        raise bad("extract", "expected a callable ask(instructions, text) -> answer")
    if embed is not None:
        shaped = isinstance(embed, tuple) and len(embed) == 3
        if not (shaped and isinstance(embed[0], str) and embed[0] and integer(embed[1])
                and 0 < embed[1] <= 4096 and callable(embed[2])):
            raise bad("embed", "expected (model name, dimension 1 to 4096, embed(texts) -> vectors)")
