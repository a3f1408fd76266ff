/// Configuring a ``KeyValueInjectable`` value from JSON text, such as a settings file.
extension KeyValueInjectable {
    /// Injects the values of a JSON object, or sets nothing and throws.
    ///
    /// Nested objects reach nested keys and numbers convert to the declared numeric type when
    /// exact; see ``KeyValueInjection/values(fromJSON:)``.
    ///
    /// ```swift
    /// var settings = Settings()
    /// try settings.inject(json: #"{"title": "Test", "view": {"cornerRadius": 4}}"#.utf8)
    /// ```
    ///
    /// - Parameter json: UTF-8 JSON text whose top level is an object: `Data` or `String.UTF8View`.
    /// - Throws: ``GraftError`` when the JSON can't be read or any value doesn't fit.
    public mutating func inject(json: some Collection<UInt8>) throws(GraftError) {
        try inject(KeyValueInjection.values(fromJSON: json, for: KeyValueInjection.typeName(Self.self)))
    }
}

extension KeyValueInjectable where Self: AnyObject {
    /// Injects the values of a JSON object into this object, or sets nothing and throws.
    ///
    /// ```swift
    /// let controller = ViewController()
    /// try controller.inject(json: Data(contentsOf: url))
    /// ```
    ///
    /// - Parameter json: UTF-8 JSON text whose top level is an object: `Data` or `String.UTF8View`.
    /// - Throws: ``GraftError`` when the JSON can't be read or any value doesn't fit.
    public func inject(json: some Collection<UInt8>) throws(GraftError) {
        try inject(KeyValueInjection.values(fromJSON: json, for: KeyValueInjection.typeName(Self.self)))
    }
}

extension KeyValueInitializable {
    /// Creates a value with `init()`, then injects the values of a JSON object into it.
    ///
    /// ```swift
    /// let settings = try Settings(injectingJSON: Data(contentsOf: url))
    /// ```
    ///
    /// - Parameter json: UTF-8 JSON text whose top level is an object: `Data` or `String.UTF8View`.
    /// - Throws: ``GraftError`` when the JSON can't be read or any value doesn't fit.
    public init(injectingJSON json: some Collection<UInt8>) throws(GraftError) {
        try self.init(injecting: KeyValueInjection.values(fromJSON: json, for: KeyValueInjection.typeName(Self.self)))
    }
}
