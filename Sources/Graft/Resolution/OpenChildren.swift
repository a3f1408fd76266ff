import Synchronization

/// The open scopes made under one scope: a doubly linked list that runs through the children
/// themselves, each child's ``Scope/siblings`` naming its neighbours.
///
/// A server opens and closes a scope per request under the same root, often many at once, so
/// listing and unlisting must cost the same however many are open and allocate nothing: a map
/// keyed by the child allocates and rehashes as it grows, and searches or moves entries to take
/// one out. The links are unretained, as the map's values were: a child let go without being
/// closed takes itself off the list (see `Scope.deinit`).
///
/// The list and every link in it belong to the parent's state: they are only ever read or
/// written with the parent's lock held, which orders every change to a child's `siblings` before
/// the next thread's read. Each link is an atomic cell in the child's memory, so the child
/// shares it between threads with no unchecked claim of its own. Each child's ``ListedMark``
/// is written only by this type too.
struct OpenChildren {
    /// A child's neighbours in its parent's list: the parent's state, kept in the child's memory,
    /// only ever read or written with the parent's lock held.
    struct Links: ~Copyable, Sendable {
        let previous = OptionalUnretainedCell<Scope>()
        let next = OptionalUnretainedCell<Scope>()

        init() {}
    }

    private var first: Unretained<Scope>?

    var isEmpty: Bool { first == nil }

    /// Lists `child`, which is not listed, first.
    mutating func insert(_ child: Scope) {
        // Listed while open; a child let go unclosed unlists itself (see the type).
        let link = Unretained(child)
        child.siblings.previous.store(nil)
        child.siblings.next.store(first)
        first?.with { $0.siblings.previous.store(link) }
        first = link
        child.listing.flag.store(true, ordering: .releasing)
    }

    /// Takes `child` off the list if it is on it; returns whether it was.
    mutating func remove(_ child: Scope) -> Bool {
        guard child.listing.isListed else { return false }
        child.listing.flag.store(false, ordering: .releasing)
        let (previous, next) = (child.siblings.previous.load(), child.siblings.next.load())
        if let previous {
            previous.with { $0.siblings.next.store(next) }
        } else {
            first = next
        }
        next?.with { $0.siblings.previous.store(previous) }
        child.siblings.previous.store(nil)
        child.siblings.next.store(nil)
        return true
    }

    /// Calls `body` with each child, newest first; `body` must not change the list.
    func visit(_ body: (Scope) -> Void) {
        var link = first
        while let current = link {
            current.with { child in
                link = child.siblings.next.load()
                body(child)
            }
        }
    }

    /// Calls `body` with each child, newest first, then takes it off the list, leaving the list
    /// empty: how a closing parent closes its children.
    ///
    /// A child is marked unlisted only once `body` is done with it. A child let go meanwhile
    /// reads its mark in its `deinit` without the parent's lock: while the mark says listed, the
    /// child waits for that lock (in `Scope.unlist`) before its memory goes, so `body` never
    /// touches a freed child; once the mark says unlisted, nothing here touches the child again.
    mutating func removeAll(_ body: (Scope) -> Void) {
        var link = first
        first = nil
        while let current = link {
            current.with { child in
                link = child.siblings.next.load()
                // The identity made first: a point capturing `child` would hold it.
                let id = ObjectIdentifier(child)
                Interleavings.reach(.parentClosesChild(child: id))
                body(child)
                // The last touch: from here on, the child may be freed.
                child.listing.flag.store(false, ordering: .releasing)
            }
        }
    }
}

/// Whether a scope is on its parent's list of open children (see ``OpenChildren``).
///
/// Written only by `OpenChildren`, whose every change is made with the parent's lock held, and
/// only once the parent is done with the child; read by the child's `deinit` without the
/// parent's lock, to learn whether it must unlist itself (under that lock) before it goes.
struct ListedMark: ~Copyable, Sendable {
    fileprivate let flag = Atomic(false)

    init() {}

    var isListed: Bool { flag.load(ordering: .acquiring) }
}
