/// Overriding: a container's registrations again, with some replaced, for tests.
extension Container {
    /// A cheap copy of this container's registrations with some replaced or added: for tests.
    ///
    /// The result is validated again and has its own singletons, all of them fresh; only
    /// `instance:` registrations are shared with this container, which stays untouched. A
    /// registration in `changes` replaces every registration of the same type and name.
    ///
    /// ```swift
    /// let testContainer = try container.overriding { $0.register(Engine.self) { _ in MockEngine() } }
    /// ```
    ///
    /// - Parameter changes: Registers the replacements.
    /// - Returns: A new container.
    /// - Throws: ``GraftError`` when the changed graph is invalid.
    public func overriding(_ changes: (inout ContainerBuilder) throws -> Void) throws -> Container {
        var builder = ContainerBuilder(overriding: core.table)
        try changes(&builder)
        builder.replacesExisting = false
        return try builder.build()
    }
}

extension ContainerBuilder {
    /// A builder holding `table`'s registrations, in which new registrations replace old ones.
    init(overriding table: RegistrationTable) {
        self.init()
        registrations = table.registrations
        requirements = table.requirements
        unhandledErrorHandler = table.problemReporter
        replacesExisting = true
    }
}
