/// Keyed-value configuration of registered services.
extension ContainerBuilder {
    /// Applies `values` to every new instance of the latest registration of `type` and `name`.
    ///
    /// The values are checked against the type's declared keys now, so `build()` reports a
    /// missing required key, an unknown key or a mistyped value before any object exists.
    ///
    /// ```swift
    /// builder.register(TrackSettings.self, using: TrackSettings.init)
    /// builder.configure(TrackSettings.self, with: ["title": "Monza", "laps": 53, "view.backgroundColor": Color.red])
    /// ```
    ///
    /// - Parameters:
    ///   - type: A registered type that declares its injectable keys.
    ///   - name: The registration's name.
    ///   - values: Values by key, as for ``KeyValueInjectable/inject(_:)-6hh43``.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    public mutating func configure<Service: KeyValueInjectable & Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        with values: [String: any Sendable],
        fileID: String = #fileID,
        line: Int = #line
    ) {
        do {
            try Service.validate(values)
        } catch {
            problems.append(error)
            return
        }
        onActivation(type, name: name, fileID: fileID, line: line) { service, _ in
            try service.inject(values)
        }
    }
}
