/// The one error type Graft throws.
///
/// Every user mistake — a missing registration, a dependency cycle, a scoped service resolved
/// from the root container, a factory that failed — arrives as a `GraftError`. Its
/// ``description`` is the message a person reads: it names the service, the resolution path
/// that led to it and what would help.
///
/// ```
/// Graft: no registration for Engine (name: "diesel")
///   resolving: RaceCar → Engine["diesel"]
///   registered for Engine: Engine, Engine["v12"]
/// ```
///
/// Match on ``code`` to handle a kind of failure; read ``underlyingError`` for the error a
/// factory or `dispose()` threw, and ``problems`` for the individual failures an aggregate
/// error (``Code/invalidGraph``, ``Code/disposalFailed``) collects. Two errors are equal when
/// their codes are equal.
public struct GraftError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What kind of failure an error reports.
    ///
    /// New codes may be added in later versions, so a `switch` over codes needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case notRegistered = "not registered"
            case cycle
            case captiveDependency = "captive dependency"
            case scopedFromRoot = "scoped service resolved from the root container"
            case needsAwait = "needs await"
            case factoryFailed = "factory failed"
            case activationFailed = "activation failed"
            case disposalFailed = "disposal failed"
            case closed
            case invalidGraph = "invalid graph"
            case missingDependency = "missing dependency"
            case unmetRequirement = "unmet module requirement"
            case eagerSingletonFailed = "eager singleton failed"
            case invalidAlias = "invalid alias"
            case weakNeedsClass = "weak lifetime needs a class"
            case typeMismatch = "type mismatch"
            case missingKey = "missing key"
            case unknownKey = "unknown key"
            case unboundProperty = "unbound property"
            case missingScopeValue = "missing scope value"
            case runtimeArguments = "runtime arguments"
            case lifetimeReplaced = "lifetime replaced"
            case completionFailed = "completion failed"
            case invalidLifecycleHook = "invalid lifecycle hook"
            case startFailed = "start failed"
            case startTimedOut = "start timed out"
            case stopFailed = "stop failed"
            case gracePeriodRanOut = "grace period ran out"
            case runningServiceFailed = "running service failed"
            case alreadyStarted = "already started"
            case noTaggedScope = "no scope with the tag"
            case invalidLease = "invalid lease"
            case notCompleted = "not completed"
            case conflictingRegistration = "conflicting registration"
        }

        private let wrapped: Wrapped

        private init(_ wrapped: Wrapped) {
            self.wrapped = wrapped
        }

        /// No registration answers for the requested type and name.
        public static let notRegistered = Code(.notRegistered)
        /// Services depend on each other in a loop, so none of them can be created first.
        public static let cycle = Code(.cycle)
        /// A longer-lived service depends on a shorter-lived one and would keep it beyond its life.
        public static let captiveDependency = Code(.captiveDependency)
        /// A `.scoped` service was asked of the root container instead of a ``Scope``.
        public static let scopedFromRoot = Code(.scopedFromRoot)
        /// A synchronous resolve reached a service that can only be created with `await`.
        public static let needsAwait = Code(.needsAwait)
        /// A factory threw; the factory's error is ``GraftError/underlyingError``.
        public static let factoryFailed = Code(.factoryFailed)
        /// An activation hook threw; its error is ``GraftError/underlyingError``.
        public static let activationFailed = Code(.activationFailed)
        /// One or more `dispose()` calls threw; each failure is in ``GraftError/problems``.
        public static let disposalFailed = Code(.disposalFailed)
        /// The scope was closed or the container shut down before this resolve.
        public static let closed = Code(.closed)
        /// `build()` found problems in the graph; each one is in ``GraftError/problems``.
        public static let invalidGraph = Code(.invalidGraph)
        /// A registration declares a dependency that nothing registers.
        public static let missingDependency = Code(.missingDependency)
        /// A module requires a service that nothing registers.
        public static let unmetRequirement = Code(.unmetRequirement)
        /// An eager singleton could not be created during `build()`.
        public static let eagerSingletonFailed = Code(.eagerSingletonFailed)
        /// A registration was asked to answer for a type its instances are not.
        public static let invalidAlias = Code(.invalidAlias)
        /// A `.weak` registration produced a value that is not a class instance.
        public static let weakNeedsClass = Code(.weakNeedsClass)
        /// A value does not have the type its destination declares.
        public static let typeMismatch = Code(.typeMismatch)
        /// Keyed-value injection lacks a key the target declares as required.
        public static let missingKey = Code(.missingKey)
        /// Keyed-value injection was given a key the target does not declare.
        public static let unknownKey = Code(.unknownKey)
        /// An ``Injected`` property was read before it was bound to a resolver.
        public static let unboundProperty = Code(.unboundProperty)
        /// A scope was not given a value that its services need (see
        /// ``ContainerBuilder/registerScopeValue(_:fileID:line:)``).
        public static let missingScopeValue = Code(.missingScopeValue)
        /// Runtime arguments are missing, of other types than a registration declares, or
        /// declared where no single instance could honour them (a `.singleton` taking arguments).
        public static let runtimeArguments = Code(.runtimeArguments)
        /// A registration replaced an earlier one with another lifetime, and the builder's
        /// `rejectsLifetimeChangingReplacements` is set.
        public static let lifetimeReplaced = Code(.lifetimeReplaced)
        /// A scope's completion step failed: a service's `complete()` (or its `onComplete`
        /// closure) threw, so the work the request did was not committed.
        public static let completionFailed = Code(.completionFailed)
        /// A start hook, stop hook or `run()` names a service that is not registered, or one that
        /// is not a `.singleton` or `.eagerSingleton`.
        public static let invalidLifecycleHook = Code(.invalidLifecycleHook)
        /// `start()` failed: a start hook threw, or a service could not be made to start it.
        public static let startFailed = Code(.startFailed)
        /// `start(timeout:)` ran out of time: a start hook (or the making of a service, or the
        /// beginning of a `run()`) was still running when the limit passed.
        public static let startTimedOut = Code(.startTimedOut)
        /// A stop hook threw while the container shut down.
        public static let stopFailed = Code(.stopFailed)
        /// A shutdown's grace period ran out with scopes still open, and they were closed for
        /// the work in them: a request stuck or too slow to finish in time.
        public static let gracePeriodRanOut = Code(.gracePeriodRanOut)
        /// A running service's `run()` threw, or returned while the container was running.
        public static let runningServiceFailed = Code(.runningServiceFailed)
        /// `start()` was called on a container that had already started (or tried to).
        public static let alreadyStarted = Code(.alreadyStarted)
        /// A `.scoped(in:)` service was resolved where no enclosing scope carries its tag (see
        /// ``ScopeTag``).
        public static let noTaggedScope = Code(.noTaggedScope)
        /// A service leased from a with-style API (`register(_:lifetime:leasedFrom:)`) is not
        /// `.scoped`, or its lender returned without lending it, or lent it twice.
        public static let invalidLease = Code(.invalidLease)
        /// A scope closed holding work whose completion step never ran (a ``Completable`` it made
        /// was neither completed nor failed): reported, not thrown, as the close goes on.
        public static let notCompleted = Code(.notCompleted)
        /// Two registrations of one type cannot both hold: a type declared as a scope value
        /// (``ContainerBuilder/registerScopeValue(_:fileID:line:)``) is also registered as a
        /// service. Reported by `build()`.
        public static let conflictingRegistration = Code(.conflictingRegistration)

        /// A short, human-readable name for the code.
        public var description: String { wrapped.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// The one-line summary, without the `Graft: ` prefix.
    public let summary: String
    /// The service the error is about (its type and name), when there is one.
    public let service: String?
    /// The resolution path that led to the failure, outermost service first.
    public internal(set) var path: [String]
    /// Lines that help: what is registered instead, how to break a cycle, what to call.
    public let hints: [String]
    /// The error a factory, activation hook or `dispose()` threw.
    public let underlyingError: (any Error)?
    /// The individual failures collected by an aggregate error.
    public let problems: [GraftError]

    /// Creates an error; Graft's own code and extensions built on it use this.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - summary: One line that says what went wrong.
    ///   - service: The service the error is about.
    ///   - path: The resolution path, outermost first.
    ///   - hints: Lines that say what would help.
    ///   - underlyingError: The error that caused this one.
    ///   - problems: Individual failures, for an aggregate error.
    public init(
        _ code: Code,
        _ summary: String,
        service: String? = nil,
        path: [String] = [],
        hints: [String] = [],
        underlyingError: (any Error)? = nil,
        problems: [GraftError] = []
    ) {
        self.code = code
        self.summary = summary
        self.service = service
        self.path = path
        self.hints = hints
        self.underlyingError = underlyingError
        self.problems = problems
    }

    /// The message a user reads: the summary, the resolution path, the hints, then each problem.
    public var description: String {
        var lines = ["Graft: \(summary)"]
        appendDetails(to: &lines, indent: "  ")
        return lines.joined(separator: "\n")
    }

    private func appendDetails(to lines: inout [String], indent: String) {
        if path.count > 1 {
            lines.append("\(indent)resolving: \(path.joined(separator: " → "))")
        }
        for hint in hints {
            lines.append("\(indent)\(hint)")
        }
        // `Resolver` is never a service, so declaring it is no help (its own hint says what is).
        if code == .notRegistered, path.count > 1, path.last != "Resolver" {
            lines.append("\(indent)\(Self.undeclaredDependencyHint(path))")
        }
        // A summary that already ends with the underlying error ("factory of Engine threw: …")
        // does not repeat it.
        if let underlyingError, !(underlyingError is GraftError) {
            let described = String(describing: underlyingError)
            if !summary.hasSuffix(described) {
                lines.append("\(indent)underlying error: \(described)")
            }
        }
        for (number, problem) in problems.enumerated() {
            lines.append("\(indent)\(number + 1). \(problem.summary)")
            problem.appendDetails(to: &lines, indent: indent + "   ")
        }
    }

    /// Whether two errors have the same ``code``.
    ///
    /// The summary, path, hints, problems and underlying error are left out, so a test or a `catch` can
    /// compare an error with the kind it expects without rebuilding its whole message:
    ///
    /// ```swift
    /// #expect(error == GraftError(.notRegistered, "any summary: only the code is compared"))
    /// ```
    public static func == (lhs: GraftError, rhs: GraftError) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the ``code`` only, in step with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}

extension GraftError {
    /// What to write so that `build()` sees a dependency a factory resolved without declaring it.
    ///
    /// A missing dependency that a registration declares fails `build()` (as a
    /// ``Code/missingDependency``), so a ``Code/notRegistered`` with a path was resolved inside a
    /// closure (a factory, a hook, a decorator) that did not declare it.
    private static func undeclaredDependencyHint(_ path: [String]) -> String {
        let (dependent, dependency) = (path[path.count - 2], path[path.count - 1])
        // `Engine` or `Engine["v12"]`, as ServiceKey describes a service.
        let parts = dependency.split(separator: "[\"", maxSplits: 1)
        let type = parts[0]  // a protocol is shown without `any`, and `Clock.self` is `(any Clock).self`
        let requirement =
            parts.count == 2
            ? "Requirement(\(type).self, name: \"\(parts[1].dropLast(2))\")" : "Requirement(\(type).self)"
        return "build() could not see this: \(dependent) resolves \(dependency) without declaring it; "
            + "add dependencies: [\(requirement)] to \(dependent)'s registration so build() checks it next time"
    }

    /// Returns a copy whose path starts with `service`, as an error unwinds through a resolve.
    func prefixingPath(with service: String) -> GraftError {
        var copy = self
        copy.path.insert(service, at: 0)
        return copy
    }
}

extension GraftError {
    /// `error` itself when it is a `GraftError` (what Graft's own closures throw through
    /// untyped `rethrows` APIs), or `error` wrapped as a factory failure.
    @usableFromInline
    static func wrapping(_ error: any Error) -> GraftError {
        if let error = error as? GraftError { return error }
        return GraftError(.factoryFailed, "\(error)", underlyingError: error)
    }
}
