// The fence: every unsafe thing Graft does is in this folder, behind typed APIs.
//
// What is here: the locks (`Locked`, `WaitableLocked`, and `InlineLock`, which a scope keeps in its
// own memory), the write-once cells that hold a container's entries and singletons (`LazyCells`)
// and are read through unretained references, the claim words a container's singletons are claimed
// with before they are made (`ClaimWords`), each entry's buffer of prepared dependency links (an
// array lent by address to each construction for exactly its run), the one box type for shared
// instances (`InstanceCell`), the typed hand-over of an instance from a recipe to the engine
// (`Construction`, `ConstructionOutput`), the weak instance holder (`WeakInstance`), a scope's
// instances held as plain words (`ScopedInstances`), the per-thread record of the creation under
// way (`ThreadSlot`) and the one word that names a link of it on a stack or in a task (`ChainWord`,
// read only by `noasync` code: an asynchronous function could hold it past the frame it names), one
// object per thread that the engine keeps between resolves (`ThreadLocalObject`), each thread's
// shelf of resolvers lent to closure factories (`LendingShelf`, which holds them by manual retains,
// typed by the one class it holds, and `PerThreadShelves`), the links an object rewrites in place
// through a `let` (`UnretainedCell`, `OptionalUnretainedCell`: one atomic word each, so the object
// that holds them is `Sendable` as the compiler checks it), a strong reference set at most once
// (`KeptOnce`), the hop to a fresh stack for very deep resolutions (`StackExtension`), the
// runtime's metadata kind, which tells an existential registered type (`isExistentialType`), the
// user's factory closure kept in its own two words, without a closure around it (`ErasedFactory`),
// and the one way code outside the fence refers to an object without retaining it (`Unretained`,
// whose invariant, "its maker keeps the object alive", is written on the type), whether the caller
// runs in a task (`CurrentTask`), and what the engine reads back of a construction it set up
// (`Construction`'s site, owner, lent request and plain links, each as the one type the engine ever
// puts there).
//
// `.ci/fence` fails the build when an unsafe construct appears outside this folder, but for the
// few it lists as not yet moved, each with its reason.
//
// The one invariant that makes them sound:
//
//   A frozen table, and every entry, registration, recipe and link buffer it holds, is
//   immutable and outlives every resolve that reads it; an entry is only ever made as the
//   type of its own key.
//
// - "Immutable and outlives": a `Container` owns its table, and every resolve runs while a
//   `Container`, a `Scope` or a `ResolutionFrame` holding the container is alive. So unretained
//   references into the table (`Unretained<Entry>`, `unowned(unsafe)`, link addresses) never
//   dangle, and reading them needs no lock.
// - "Made as the type of its own key": a recipe is created by the same `register` call that
//   creates its registration's key, from the same `Service` type, and delivers exactly a
//   `Service`; a factory it keeps erased is read back only as the holder of the registered
//   type. Entries are found under their own key, or linked as a dependency whose key is
//   the parameter's type. So the memory `ConstructionOutput` reserves, and the boxes shared
//   instances live in, hold the type the caller reads; `ConstructionOutput` checks the key's
//   type against the type it reads before it reads, and reports a mismatch as an error.
// - Shared mutable state (slots, locks) is touched only atomically or under its lock.
//
// And three rules the compiler checks where Swift can say them:
//
// - No asynchronous function reads a thread's slot: `ThreadSlot.read()`, `ChainWord.current(in:)`
//   and `CreationChain.current()` are `noasync`; asynchronous code reads its task's chain,
//   which holds its links strongly (`CreationChain.inThisTask`, `ChainSource.thisTask`).
// - An object held unretained is kept by a strong reference of the same function for the whole
//   use, never by a temporary: a resolve in a scope the caller got as a value starts through
//   `ResolveState.keeping(_:_:)` (or `ParentLink.resolving(in:of:key:_:)`), which holds it.
// - No pointer outlives the `withUnsafe…` call or the `&` argument that lent it: a construction's
//   links, output and request are lent for its run (`Construction.lending`); a stack link lives
//   in the frame of `ChainWord.withStackLink`.
//
// And one held by construction: a scope's "listed under its parent" mark (`ListedMark`) is
// written only by `OpenChildren`, under the parent's lock, and cleared only once the parent is
// done with the child, so a child let go meanwhile waits for that lock before its memory goes.
