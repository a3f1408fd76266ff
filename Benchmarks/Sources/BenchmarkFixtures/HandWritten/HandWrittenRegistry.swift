public import GeneratedServices

/// The smallest service locator a person writes by hand: one dictionary from type to factory.
/// It is the baseline of scenario 6 and of `graft-startup` (register N services, then resolve
/// one); it validates nothing, so it shows what registering alone costs.
public struct HandWrittenRegistry {
    private var factories: [ObjectIdentifier: @Sendable () -> any Sendable] = [:]

    public init() {}

    public mutating func register<Service: GeneratedService>(_ type: Service.Type) {
        factories[ObjectIdentifier(type)] = { Service() }
    }

    public func resolve<Service: GeneratedService>(_ type: Service.Type) -> Service? {
        factories[ObjectIdentifier(type)]?() as? Service
    }
}
