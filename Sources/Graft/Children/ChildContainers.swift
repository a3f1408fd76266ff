/// The live children of a container, which its shutdown shuts down first: held weakly, so a
/// child let go without a shutdown is not kept.
///
/// Generic over the child so that this feature needs nothing above the engine: the container
/// keeps a `ChildContainers<Container>`.
final class ChildContainers<Child: AnyObject & Sendable>: ChildListing {
    private struct Weak: Sendable {
        weak let container: Child?
    }

    /// `nil` once the parent's shutdown took them: no child is added after.
    private let children = Locked<[ObjectIdentifier: Weak]?>([:])

    func add(_ child: Child, for link: ParentLink) -> Bool {
        children.withLock { children in
            guard children != nil else { return false }
            children?[ObjectIdentifier(link)] = Weak(container: child)
            return true
        }
    }

    func remove(_ link: ParentLink) {
        children.withLock { _ = $0?.removeValue(forKey: ObjectIdentifier(link)) }
    }

    /// The children still alive, newest last; none can be added from now on.
    func takeAll() -> [Child] {
        let taken = children.withLock { children in
            defer { children = nil }
            return children.map { Array($0.values) } ?? []
        }
        return taken.compactMap(\.container)
    }
}
