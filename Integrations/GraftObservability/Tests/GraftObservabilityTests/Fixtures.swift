import Graft

// The services the tests register: a request's handler, its scoped repository, a singleton
// settings, and services that are slow, fail, or fail to be disposed.

struct Settings: Sendable {}
struct Repository: Sendable { let settings: Settings }
struct Handler: Sendable { let repository: Repository }

/// Made in about 20 ms.
struct SlowReport: Sendable {
    init() { spin(.milliseconds(20)) }
}

struct Unavailable: Error, CustomStringConvertible {
    var description: String { "unavailable" }
}

/// A service whose factory throws ``Unavailable``.
struct Flaky: Sendable {}

/// A connection whose `dispose()` throws.
final class StuckConnection: Disposable {
    func dispose() throws { throw Unavailable() }
}

/// Runs for `duration` without sleeping: a factory that takes time.
func spin(_ duration: Duration) {
    let until = ContinuousClock.now + duration
    while ContinuousClock.now < until {}
}

/// A builder with Settings, Repository (scoped) and Handler (transient), and `observer`.
func builder(observing observer: some ContainerObserver) -> ContainerBuilder {
    var builder = ContainerBuilder()
    builder.addObserver(observer)
    builder.register(Settings.self, lifetime: .singleton) { _ in Settings() }
    builder.register(Repository.self, lifetime: .scoped, using: Repository.init(settings:))
    builder.register(Handler.self, using: Handler.init(repository:))
    return builder
}
