/// Values each scope is given: the request id, a logger carrying it, the signed-in user.
extension ContainerBuilder {
    /// Declares that each scope is given a `Value` when it is made, for services to depend on.
    ///
    /// A server's request scope knows things no factory can make: the request's id, a logger
    /// that carries it, the authenticated user. Declare each such type once; services then
    /// autowire it like any other dependency, and `build()` checks it like a service: a
    /// singleton that depends on it is a captive dependency, and nothing resolves it from the
    /// root container.
    ///
    /// ```swift
    /// builder.registerScopeValue(RequestID.self)
    /// builder.register(AuditLog.self, lifetime: .scoped, using: AuditLog.init(requestID:store:))
    ///
    /// let container = try builder.build()
    /// try await container.withScope(providing: RequestID("7f3a")) { scope in
    ///     try await scope.resolve(AuditLog.self).record("lap started")
    /// }
    /// ```
    ///
    /// A scope that was not given the value fails when something first needs it, naming the
    /// value and how to give it. Not when the scope is made: a scope may serve work that never
    /// needs every declared value (a background job has no signed-in user), and a placeholder
    /// value would hide the mistake this error shows. A child scope sees its parent's values
    /// unless it is given its own. Given values belong to the caller: a scope never disposes them.
    ///
    /// - Parameters:
    ///   - type: The type of the value each scope is given; one declaration per type.
    ///   - fileID: Where the declaration is made, for messages; leave the default.
    ///   - line: Where the declaration is made, for messages; leave the default.
    public mutating func registerScopeValue<Value: Sendable>(
        _ type: Value.Type,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        let recipe = Recipe(.scopeValue) { _ in
            let key = ServiceKey(Value.self)
            throw GraftError(
                .missingScopeValue,
                "\(key.typeName) is a scope value, and this scope was not given one",
                service: key.description,
                hints: [
                    "give it when making the scope: container.makeScope(providing: \(key.typeName)(…)), "
                        + "or withScope(providing:)",
                    "declared at \(fileID):\(line)",
                ]
            )
        }
        add(type, name: nil, lifetime: .scoped, recipe: recipe, fileID: fileID, line: line)
    }
}
