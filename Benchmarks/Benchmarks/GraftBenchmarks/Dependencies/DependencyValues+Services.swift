import BenchmarkFixtures
import Dependencies

// swift-dependencies keys a value by a `DependencyKey` type and caches the live value on first
// use: that is a singleton. It has no transients and no object graphs, so only scenarios 1
// (a singleton), 5 (a value overridden for one request) and 7 (a singleton from threads) fit.

private enum AppSettingsKey: DependencyKey {
    static let liveValue = AppSettings()
}

/// Only ever read inside `withDependencies`, which sets the request's own context; the live
/// value exists because every key must have one.
private enum RequestContextKey: DependencyKey {
    static let liveValue = RequestContext(settings: AppSettings())
}

extension DependencyValues {
    var appSettings: AppSettings {
        get { self[AppSettingsKey.self] }
        set { self[AppSettingsKey.self] = newValue }
    }

    var requestContext: RequestContext {
        get { self[RequestContextKey.self] }
        set { self[RequestContextKey.self] = newValue }
    }
}
