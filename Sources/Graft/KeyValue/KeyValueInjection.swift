/// Keyed-value injection helpers that belong to no one type, such as reading values from JSON.
///
/// Keyed-value injection sets properties by name, as `initWithParams:` in <doc:SeedsTour> did with
/// Objective-C key-value coding, but over the writable key paths a ``KeyValueInjectable``
/// type declares: required keys are checked, any value type works, and mistakes are reported
/// all at once in one ``GraftError``.
///
/// ```swift
/// let values = try KeyValueInjection.values(fromJSON: Data(contentsOf: settingsURL))
/// var settings = Settings()
/// try settings.inject(values)
/// ```
public enum KeyValueInjection: Sendable {}
