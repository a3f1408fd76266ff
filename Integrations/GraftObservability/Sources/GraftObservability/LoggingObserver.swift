public import Graft
public import Logging

/// Logs what a container makes with swift-log: creations and factory failures at debug level,
/// disposal failures at error level, each with metadata.
///
/// ```swift
/// var logger = Logger(label: "graft")
/// logger.logLevel = .debug
/// builder.addObserver(LoggingObserver(logger: logger))
/// ```
///
/// A creation logs `made Repository` with the metadata `service` (as Graft's messages name it),
/// `lifetime` (`scoped`), `duration` (`0.052 ms`, dependencies included) and `scope`
/// (`container`, or `scope 0x…` identifying the scope that owns the instance). A factory that
/// threw logs `factory of Repository threw` with `service` and `error`; a disposal that threw
/// logs `disposal of Connection threw` with `service` and `error`; a scope closed holding work
/// whose completion step never ran logs the error's message at error level with `services` and
/// `scope`: work that was not committed. Disposals that succeed and scopes opened and closed are
/// logged at trace level.
///
/// The logger's level decides what is logged: a logger above debug level costs each creation
/// one comparison.
public struct LoggingObserver: ContainerObserver {
    /// Where the messages go.
    public let logger: Logger

    /// An observer that logs to `logger`.
    ///
    /// - Parameter logger: The logger; set its level to `.debug` to see creations.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// Logs the creation at debug level.
    public func didCreate(_ event: CreationEvent) {
        logger.debug(
            "made \(event.service)",
            metadata: [
                "service": "\(event.service)",
                "lifetime": "\(event.lifetime.name)",
                "duration": "\(milliseconds(event.duration))",
                "scope": "\(scope(event.owner))",
            ]
        )
    }

    /// Logs the failure at debug level: the error reaches the caller of `resolve` anyway.
    public func factoryDidThrow(_ event: FactoryFailureEvent) {
        logger.debug(
            "factory of \(event.service) threw",
            metadata: ["service": "\(event.service)", "error": "\(String(describing: event.error))"]
        )
    }

    /// Logs a disposal that threw at error level, one that returned at trace level.
    public func didDispose(_ event: DisposalEvent) {
        if let error = event.error {
            logger.error(
                "disposal of \(event.service) threw",
                metadata: ["service": "\(event.service)", "error": "\(String(describing: error))"]
            )
        } else {
            logger.trace("disposed \(event.service)", metadata: ["service": "\(event.service)"])
        }
    }

    /// Logs the scope at trace level.
    public func didOpenScope(_ event: ScopeEvent) {
        logger.trace("opened a scope", metadata: ["scope": "\(scope(.scope(event.scope)))"])
    }

    /// Logs the scope at trace level.
    public func didCloseScope(_ event: ScopeEvent) {
        logger.trace("closed a scope", metadata: ["scope": "\(scope(.scope(event.scope)))"])
    }

    /// Logs work that was not committed at error level: the message says what to do.
    public func scopeDidCloseWithoutCompleting(_ event: NotCompletedEvent) {
        logger.error(
            "\(event.error.description)",
            metadata: [
                "services": "\(event.services.joined(separator: ", "))",
                "scope": "\(scope(.scope(event.scope)))",
            ]
        )
    }
}

/// `container`, or `scope 0x…` with the scope's address.
func scope(_ owner: InstanceOwner) -> String {
    switch owner {
    case .container: "container"
    case .scope(let id): "scope 0x" + String(UInt(bitPattern: id), radix: 16)
    }
}

/// `duration` in milliseconds with three decimals: `0.052 ms`.
func milliseconds(_ duration: Duration) -> String {
    let microseconds = duration.nanoseconds / 1000
    let fraction = String(microseconds % 1000)
    return "\(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
}
