/// The resolver a closure factory or activation hook receives: one step of a resolution.
///
/// Frames link to their parent, so the chain is the path of closure factories under way; a
/// factory that would run again inside itself is a cycle, reported instead of recursing forever.
@usableFromInline
final class ResolutionFrame: Resolver {
    let container: ContainerCore
    let scope: ScopeCore
    let parent: ResolutionFrame?
    let call: CallState?
    /// The entry whose factory or hook received this frame.
    let entryIndex: Int
    let singleton: Int
    let depth: Int

    init(
        container: ContainerCore,
        scope: ScopeCore,
        parent: ResolutionFrame?,
        call: CallState?,
        entryIndex: Int,
        singleton: Int,
        depth: Int
    ) {
        self.container = container
        self.scope = scope
        self.parent = parent
        self.call = call
        self.entryIndex = entryIndex
        self.singleton = singleton
        self.depth = depth
    }

    var state: ResolveState {
        ResolveState(scope: scope, frame: self, call: call, singleton: singleton, depth: depth)
    }

    /// The keys from the frame for `index` down to this one, or `nil` when `index` is not on the path.
    func path(from index: Int) -> [ServiceKey]? {
        var keys: [ServiceKey] = []
        var link: ResolutionFrame? = self
        while let frame = link {
            keys.append(container.table.entries[frame.entryIndex].key)
            if frame.entryIndex == index { return keys.reversed() }
            link = frame.parent
        }
        return nil
    }

    @usableFromInline
    func resolve<Service: Sendable>(_ type: Service.Type, name: String?) throws(GraftError) -> Service {
        var state = self.state
        return try container.resolve(type, name: name, &state)
    }

    @usableFromInline
    func resolve<Service: Sendable>(_ type: Service.Type, name: String?) async throws(GraftError) -> Service {
        var state = self.state
        return try await container.resolveAsync(type, name: name, &state)
    }

    @usableFromInline
    func resolveAll<Service: Sendable>(_ type: Service.Type) throws(GraftError) -> [Service] {
        var state = self.state
        return try container.resolveAll(type, &state)
    }

    @usableFromInline
    func resolveAll<Service: Sendable>(_ type: Service.Type) async throws(GraftError) -> [Service] {
        var state = self.state
        return try await container.resolveAllAsync(type, &state)
    }
}
