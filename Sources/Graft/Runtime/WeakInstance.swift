/// A `.weak` instance: the container does not keep it alive.
@usableFromInline
final class WeakInstance: Sendable {
    // Sound without a lock: `object` is written once, in `init`, before the instance is shared,
    // and Swift's runtime makes loading a weak reference atomic. The referent arrived as a
    // `Sendable` value of the entry's type, and it is only handed out again as that type (a
    // checked cast), so it crosses no boundary the original value could not.
    private nonisolated(unsafe) weak var object: AnyObject?

    /// Holds `value` weakly, or returns `nil` when it is not a class instance.
    init?<Service: Sendable>(_ value: Service) {
        guard type(of: value as Any) is AnyClass else { return nil }
        self.object = value as AnyObject
    }

    /// The instance while it lives.
    func value<Service: Sendable>(as type: Service.Type = Service.self) -> Service? {
        object.flatMap { $0 as? Service }
    }
}

/// The `.weak` registrations' instances of one container, by slot (see
/// `ContainerCore.weakInstances` for why it is a type of its own).
struct WeakInstances: Sendable {
    var bySlot: [Int: WeakInstance] = Dictionary()
}
