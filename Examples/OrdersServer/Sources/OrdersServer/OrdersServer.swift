import Configuration
import Foundation
import Graft
import GraftConfiguration
import GraftHummingbird
import GraftPostgres
import GraftServiceLifecycle
import Hummingbird
import Logging
import PostgresNIO
import ServiceLifecycle
import UnixSignals

@main
struct OrdersServer {
    static func main() async throws {
        let environment = ProcessInfo.processInfo.environment
        let config = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
        var logger = Logger(label: "orders-server")
        logger.logLevel = environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info

        // The wiring: the Graft registrations and the glue, from here to the end.
        var builder = ContainerBuilder()
        let unknownKeys: [ConfigurationKeyInventory] = [.environmentVariables(environment)]
        builder.registerSettings(OrdersSettings.self, from: config, prefix: "orders", unknownKeysIn: unknownKeys)
        builder.register(PostgresClient.self, lifetime: .singleton, using: PostgresClient.make(settings:))
        // The client runs for the container's life; a request leases a connection and begins a
        // transaction on it, which commits before the response is sent (GraftPostgres).
        builder.registerPostgresTransactions(logger: databaseLogger)
        builder.register(Schema.self, lifetime: .singleton, using: Schema.init(client:))
        let readiness = Readiness()
        builder.onStart(Schema.self) { schema in  // once the client runs: the last step of the start
            try await schema.create()
            readiness.markReady()
        }
        builder.register(OrderRepository.self, using: OrderRepository.init(transaction:))
        let container = await builder.buildOrExit()  // a mistake: its message, and exit status 1
        let settings = try await container.resolve(OrdersSettings.self)

        let router = Router(context: BasicGraftRequestContext.self)
        router.readiness("health", readiness)  // 503 until the container has started
        // Each request in a scope, answered 503 once past its deadline (its transaction rolled back).
        let scopes = RequestScopeMiddleware<BasicGraftRequestContext>(container, deadline: settings.requestDeadline)
        addOrderRoutes(to: router.group().add(middleware: scopes))
        // The same database work without Graft, for Scripts/load.sh to compare (not the example).
        addBaselineRoutes(to: router.group("bare"), client: try await container.resolve(PostgresClient.self))
        let address = BindAddress.hostname("127.0.0.1", port: settings.port)
        // The guard answers at the deadline even a handler stuck in a call that ignores cancellation.
        let app = Application(router: router.guardingRequests(), configuration: .init(address: address), logger: logger)
        // A start that has not ended within the timeout (PostgreSQL unreachable) fails the group.
        // SIGTERM: requests in flight are answered, then the client stops and all is disposed.
        let shutdown = ContainerService(
            container,
            startTimeout: settings.startTimeout,
            gracePeriod: settings.gracePeriod,
            deadlineAfterGracePeriod: settings.deadline
        )
        let signals: [UnixSignal] = [.sigterm, .sigint]
        let services = ServiceGroup(services: [shutdown, app], gracefulShutdownSignals: signals, logger: logger)
        do {
            try await services.run()
        } catch {
            logger.critical("\(error)")  // the group logs what failed at the debug level only
            exit(1)
        }
    }
}
