/// Answers a request for a type nobody registers: a child asks its parent; `Lazy`, `Provider`
/// and `Optional` of a registered type, and the collections gathered at the call, work without a
/// registration of their own; anything else is an error.
@usableFromInline
enum Unregistered {
    @usableFromInline
    static func resolve<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        by core: ContainerCore,
        _ state: inout ResolveState
    ) throws(GraftError) -> Service {
        let table = core.table
        // A child asks its parent for what it registers under no form.
        if let parent = table.parent, !table.answersWrapped(type, name: name) {
            return try parent.resolve(type, name: name, from: state.scope, of: core)
        }
        let key = ServiceKey(type, name: name)
        if name == nil, let collection = Service.self as? any GatheredCollection.Type {
            return try Untyped.cast(try collection.gather(from: core, &state), to: type, key)
        }
        guard name == nil, let wrapping = Service.self as? any WrappedDependency.Type else {
            throw ResolutionErrors.notRegistered(key, in: table)
        }
        let dependency = wrapping.dependency
        let entry = table.entry(for: dependency.key.id, name: nil)
        switch (wrapping as? any DeferredForm.Type, entry) {
        case (let form?, let entry?):
            let link = DeferredLink(container: core, scope: state.scope, target: entry.index, key: dependency.key)
            return try Untyped.cast(form.init(link), to: type, key)
        case (nil, let entry?):
            return try Untyped.cast(try core.makeErased(entry, &state), to: type, key)
        case (nil, nil):
            return try Untyped.absent(type, key, in: table)
        case (_?, nil):
            throw ResolutionErrors.notRegistered(dependency.key, in: table)
        }
    }

    /// ``resolve(_:name:by:_:)``, awaiting what needs it: a collection's items, or the service
    /// behind an optional.
    static func resolveAsync<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        by core: ContainerCore,
        _ state: inout ResolveState
    ) async throws(GraftError) -> Service {
        let table = core.table
        if let parent = table.parent, !table.answersWrapped(type, name: name) {
            return try await parent.resolveAsync(type, name: name, from: state.scope, of: core)
        }
        let key = ServiceKey(type)
        if name == nil, let collection = Service.self as? any GatheredCollection.Type {
            return try Untyped.cast(try await collection.gatherAsync(from: core, &state), to: type, key)
        }
        if name == nil, let wrapping = Service.self as? any WrappedDependency.Type,
            wrapping.dependency.kind != .deferred,
            let entry = table.entry(for: wrapping.dependency.key.id, name: nil)
        {
            return try Untyped.cast(try await core.makeErasedAsync(entry, &state), to: type, key)
        }
        return try resolve(type, name: name, by: core, &state)
    }
}
