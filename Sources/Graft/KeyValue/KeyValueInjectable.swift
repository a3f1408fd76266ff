/// A type that accepts values by name: keyed-value injection over declared writable key paths.
///
/// The type lists the keys it accepts in ``injectableKeys``; each key names a writable key
/// path, says whether it is required, and may lead into a child value with keys of its own, so
/// a dotted key such as `"view.backgroundColor"` reaches a nested property. Any value type
/// works: `Int`, `Bool`, `Double`, enums, structs and classes.
///
/// ```swift
/// struct Settings: KeyValueInitializable {
///     var title = ""
///     var retries = 0
///     var view = ViewStyle()
///
///     static let injectableKeys: InjectableKeys<Settings> = [
///         .required("title", \.title),
///         .optional("retries", \.retries),
///         .nested("view", \.view),
///     ]
/// }
///
/// var settings = Settings()
/// try settings.inject(["title": "Test", "view.backgroundColor": Color.white, "retries": 3])
/// ```
///
/// A class conforms the same way (declare it `final`, or use ``InjectableKeys`` directly for
/// a class hierarchy); its `inject(_:)` needs no `var`.
public protocol KeyValueInjectable {
    /// The keys this type accepts, with where each value goes.
    ///
    /// ```swift
    /// static let injectableKeys: InjectableKeys<Settings> = [
    ///     .required("title", \.title),
    ///     .optional("retries", \.retries),
    /// ]
    /// ```
    static var injectableKeys: InjectableKeys<Self> { get }
}

extension KeyValueInjectable {
    /// Sets the values of `values` on this value, by key, or sets nothing and throws.
    ///
    /// Every key is checked first: each problem — a required key that is missing, a key the
    /// type does not declare, a value of the wrong type — is listed in the thrown error's
    /// ``GraftError/problems``. Only when there is none are the values applied.
    ///
    /// ```swift
    /// var settings = Settings()
    /// try settings.inject(["title": "Test", "retries": 3])
    /// ```
    ///
    /// This is the function for an activation hook that receives `inout T`.
    ///
    /// - Parameter values: Values by key; a dotted key (`"view.backgroundColor"`) or a nested
    ///   dictionary (`["view": ["backgroundColor": …]]`, written
    ///   `as [String: any Sendable]` when its values have mixed types) reaches a nested key.
    /// - Throws: ``GraftError`` whose ``GraftError/problems`` each have the code
    ///   ``GraftError/Code/missingKey``, ``GraftError/Code/unknownKey`` or
    ///   ``GraftError/Code/typeMismatch``.
    public mutating func inject(_ values: [String: any Sendable]) throws(GraftError) {
        try Self.injectableKeys.inject(values, into: &self)
    }

    /// Checks `values` against the declared keys without setting anything.
    ///
    /// ```swift
    /// try Settings.validate(["title": "Test", "retries": 3])
    /// ```
    ///
    /// - Parameter values: Values by key, as for `inject(_:)`.
    /// - Throws: The ``GraftError`` that injecting `values` would throw.
    public static func validate(_ values: [String: any Sendable]) throws(GraftError) {
        try injectableKeys.validate(values)
    }
}

extension KeyValueInjectable where Self: AnyObject {
    /// Sets the values of `values` on this object, by key, or sets nothing and throws.
    ///
    /// ```swift
    /// let controller = ViewController()
    /// try controller.inject(["title": "Test", "view.backgroundColor": Color.white])
    /// ```
    ///
    /// - Parameter values: Values by key, as for a value type's `inject(_:)`.
    /// - Throws: ``GraftError`` listing every problem in ``GraftError/problems``.
    public func inject(_ values: [String: any Sendable]) throws(GraftError) {
        var object = self
        try Self.injectableKeys.inject(values, into: &object)
    }
}

/// A ``KeyValueInjectable`` type with a no-argument initializer, so it can be created from
/// values: the counterpart of the Objective-C `initWithParams:`.
///
/// ```swift
/// let settings = try Settings(injecting: ["title": "Test", "retries": 3])
/// ```
public protocol KeyValueInitializable: KeyValueInjectable {
    /// Creates a value with every property at its default.
    ///
    /// ```swift
    /// init() {}
    /// ```
    init()
}

extension KeyValueInitializable {
    /// Creates a value with `init()`, then injects `values` into it.
    ///
    /// ```swift
    /// let settings = try Settings(injecting: ["title": "Test", "view.backgroundColor": Color.white])
    /// ```
    ///
    /// - Parameter values: Values by key, as for `inject(_:)`.
    /// - Throws: ``GraftError`` listing every problem in ``GraftError/problems``.
    public init(injecting values: [String: any Sendable]) throws(GraftError) {
        self.init()
        try Self.injectableKeys.inject(values, into: &self)
    }
}
