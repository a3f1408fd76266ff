import Configuration
import Foundation
import Graft
import GraftConfiguration
import GraftHummingbird
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
        builder.runs(PostgresClient.self)  // its run() lasts as long as the container
        builder.register(Schema.self, lifetime: .singleton, using: Schema.init(client:))
        builder.onStart(Schema.self) { schema in try await schema.create() }  // once the client runs
        // A connection per request, leased from withConnection and returned when the request ends.
        builder.register(PostgresConnection.self, lifetime: .scoped, dependencies: [Requirement(PostgresClient.self)]) {
            r,
            use in
            try await r.resolve(PostgresClient.self).withConnection { connection in try await use(connection) }
        }
        builder.register(Transaction.self, lifetime: .scoped, using: Transaction.begin(on:))
        builder.onComplete(Transaction.self)  // COMMIT before the response is sent
        builder.register(OrderRepository.self, using: OrderRepository.init(transaction:))
        let container = await builder.buildOrExit()  // a mistake: its message, and exit status 1
        let settings = try await container.resolve(OrdersSettings.self)

        let router = Router(context: BasicGraftRequestContext.self)
        router.get("health") { _, _ in "ok" }
        addOrderRoutes(to: router.group().add(middleware: RequestScopeMiddleware(container)))
        // The same database work without Graft, for Scripts/load.sh to compare (not the example).
        addBaselineRoutes(to: router.group("bare"), client: try await container.resolve(PostgresClient.self))
        let address = BindAddress.hostname("127.0.0.1", port: settings.port)
        let app = Application(router: router, configuration: .init(address: address), logger: logger)
        // SIGTERM: requests in flight are answered, then the client stops and all is disposed.
        let grace = (period: settings.gracePeriod, deadline: settings.deadline)
        let shutdown = ContainerService(container, gracePeriod: grace.period, deadlineAfterGracePeriod: grace.deadline)
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
