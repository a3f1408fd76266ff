import GraftHummingbird
import Hummingbird
import HummingbirdTesting
import Testing

/// The readiness route answers 503 until the container has started, then 200.
@Suite(.timeLimit(.minutes(1))) struct ReadinessTests {
    @Test func theReadinessRouteAnswers503UntilMarkedReady() async throws {
        let readiness = Readiness()
        let router = Router()
        router.readiness("health", readiness)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body) == #"{"error":{"message":"The server is starting."}}"#)
            }
            readiness.markReady()
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "ok")
            }
        }
    }
}
