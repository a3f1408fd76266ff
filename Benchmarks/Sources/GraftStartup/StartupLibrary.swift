import BenchmarkFixtures
import GeneratedServices
import Graft
import Swinject

/// The libraries `graft-startup` can start, and the one step it times for each: register N
/// distinct services, build the container where the library has a build step, resolve the last.
enum StartupLibrary: String, CaseIterable {
    /// Does nothing in the measured step. Running it under callgrind and subtracting its total
    /// from another library's leaves the instructions that library's step costs.
    case none
    case handwritten
    case graft
    case swinject

    /// Runs the step and returns what must stay alive for the memory reading: the container and
    /// the service resolved from it.
    func start(_ types: ArraySlice<any GeneratedService.Type>) throws -> StartedContainer {
        guard let last = types.last else { return StartedContainer(container: (), resolved: ()) }
        switch self {
        case .none:
            return StartedContainer(container: (), resolved: ())
        case .handwritten:
            var registry = HandWrittenRegistry()
            for type in types {
                registry.register(type)
            }
            return StartedContainer(container: registry, resolved: registry.resolve(last) as Any)
        case .graft:
            var builder = ContainerBuilder()
            for type in types {
                GraftContainers.register(type, in: &builder)
            }
            // `build()` validates the whole graph, which is part of what starting Graft costs.
            let container = try builder.build()
            return StartedContainer(container: container, resolved: try Self.resolve(last, from: container))
        case .swinject:
            let container = Swinject.Container()
            for type in types {
                SwinjectContainers.register(type, in: container)
            }
            return StartedContainer(container: container, resolved: container.resolve(last) as Any)
        }
    }

    private static func resolve<Service: GeneratedService>(
        _ type: Service.Type,
        from container: Graft.Container
    ) throws -> Service {
        try container.resolve(Service.self)
    }
}

/// A started container and the one service resolved from it, kept until after the heap is read.
struct StartedContainer {
    let container: Any
    let resolved: Any
}
