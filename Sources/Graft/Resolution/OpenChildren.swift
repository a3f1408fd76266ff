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
/// written with the parent's lock held, which is what makes the child's `siblings` safe to
/// share between threads.
struct OpenChildren {
    /// A child's neighbours in its parent's list.
    struct Links {
        var previous: Unretained<Scope>?
        var next: Unretained<Scope>?
    }

    private var first: Unretained<Scope>?

    var isEmpty: Bool { first == nil }

    /// Lists `child`, which is not listed, first.
    mutating func insert(_ child: Scope) {
        // Listed while open; a child let go unclosed unlists itself (see the type).
        let link = Unretained(child)
        child.siblings = Links(previous: nil, next: first)
        first?.with { $0.siblings.previous = link }
        first = link
    }

    /// Takes `child`, which is listed, off the list.
    mutating func remove(_ child: Scope) {
        let links = child.siblings
        if let previous = links.previous {
            previous.with { $0.siblings.next = links.next }
        } else {
            first = links.next
        }
        links.next?.with { $0.siblings.previous = links.previous }
        child.siblings = Links()
    }

    /// Calls `body` with each child, newest first; `body` must not change the list.
    func visit(_ body: (Scope) -> Void) {
        var link = first
        while let current = link {
            current.with { child in
                link = child.siblings.next
                body(child)
            }
        }
    }

    /// Forgets every child at once, leaving their links as they are: the caller has marked each
    /// one unlisted, so none of them reads its links again.
    mutating func removeAll() {
        first = nil
    }
}
