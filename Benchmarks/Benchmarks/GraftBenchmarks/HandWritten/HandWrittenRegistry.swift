/// The smallest service locator a person writes by hand: one dictionary from type to factory.
/// It is the baseline of scenario 6 (register N services, then resolve one); it validates
/// nothing, so it shows what registering alone costs.
struct HandWrittenRegistry {
    private var factories: [ObjectIdentifier: @Sendable () -> any Sendable] = [:]

    mutating func register<Service: GeneratedService>(_ type: Service.Type) {
        factories[ObjectIdentifier(type)] = { Service() }
    }

    func resolve<Service: GeneratedService>(_ type: Service.Type) -> Service? {
        factories[ObjectIdentifier(type)]?() as? Service
    }
}
